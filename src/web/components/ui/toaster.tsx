import { useLayoutEffect, useRef, useState } from 'react';
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from './toast';
import {
  bottomBarBox,
  focusedControlBox,
  headerBox,
  placeToast,
  visibleControlBoxes,
  type ToastPlacement,
} from './toast-placement';
import { useToast } from './use-toast';

const AT_THE_BOTTOM: ToastPlacement = { edge: 'bottom', offset: 0 };

/**
 * Where the toast viewport goes while a toast shows (docs/rules/screens-shared.md, Client behaviour):
 * measured again when the toast opens, when focus moves, and when the page scrolls or resizes (a
 * phone's keyboard opening included).
 */
function useToastPlacement(isShowing: boolean) {
  const viewportRef = useRef<HTMLOListElement>(null);
  const [placement, setPlacement] = useState<ToastPlacement>(AT_THE_BOTTOM);

  useLayoutEffect(() => {
    if (!isShowing) return undefined;
    let frame = 0;
    const measure = () => {
      frame = 0;
      const element = viewportRef.current;
      if (!element) return;
      const height = window.innerHeight;
      const visible = window.visualViewport;
      // A phone's on-screen keyboard covers the bottom of the window: it counts as a bottom bar.
      const keyboardTop = visible ? visible.offsetTop + visible.height : height;
      const bar = bottomBarBox(document, height);
      const barTop = Math.min(bar?.top ?? height, keyboardTop);
      const toast = element.getBoundingClientRect();
      const next = placeToast({
        viewport: { width: window.innerWidth, height },
        toast: { height: toast.bottom - toast.top, left: toast.left, right: toast.right },
        header: headerBox(document),
        bottomBar:
          barTop < height ? { top: barTop, bottom: height, left: 0, right: window.innerWidth } : null,
        focused: focusedControlBox(document, element, height),
        controls: visibleControlBoxes(document, height),
      });
      setPlacement((current) =>
        current.edge === next.edge && current.offset === next.offset ? current : next,
      );
    };
    const later = () => {
      if (frame === 0) frame = requestAnimationFrame(measure);
    };
    measure();
    const targets: [EventTarget | null | undefined, string, boolean][] = [
      [document, 'focusin', false],
      [document, 'focusout', false],
      [window, 'resize', false],
      [window, 'scroll', true],
      [window.visualViewport, 'resize', false],
      [window.visualViewport, 'scroll', false],
    ];
    for (const [target, type, capture] of targets) target?.addEventListener(type, later, capture);
    // The toast arrives in the viewport after it opens, and its text may wrap: measured again.
    const resized = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(later);
    if (viewportRef.current) resized?.observe(viewportRef.current);
    return () => {
      resized?.disconnect();
      if (frame !== 0) cancelAnimationFrame(frame);
      for (const [target, type, capture] of targets) target?.removeEventListener(type, later, capture);
    };
  }, [isShowing]);

  return { viewportRef, placement };
}

/** Renders the current toast (mounted once, in the app providers). */
export function Toaster() {
  const { toasts } = useToast();
  const { viewportRef, placement } = useToastPlacement(toasts.some((shown) => shown.open !== false));

  return (
    <ToastProvider>
      {toasts.map(({ id, title, description, action, ...props }) => (
        <Toast key={id} {...props}>
          <div className="grid gap-1">
            {title ? <ToastTitle>{title}</ToastTitle> : null}
            {description ? <ToastDescription>{description}</ToastDescription> : null}
          </div>
          {action}
          <ToastClose />
        </Toast>
      ))}
      <ToastViewport
        ref={viewportRef}
        data-edge={placement.edge}
        style={{ [placement.edge]: placement.offset }}
      />
    </ToastProvider>
  );
}
