import { useCallback, useRef, useState } from 'react';

/**
 * Whether an element has come within `margin` of the viewport, once (then it stays true): what waits
 * below a phone's first screen is drawn when the user scrolls towards it
 * (docs/decisions/0014-first-load.md, Drawn when scrolled near). False on the server and in the
 * browser's first render, so hydration matches; a browser without IntersectionObserver gets true
 * at once after it.
 */
export function useNearViewport<T extends Element>(margin = '600px'): [(element: T | null) => void, boolean] {
  const [near, setNear] = useState(false);
  const observer = useRef<IntersectionObserver | null>(null);
  const ref = useCallback(
    (element: T | null) => {
      observer.current?.disconnect();
      observer.current = null;
      if (!element || near) return;
      if (typeof IntersectionObserver === 'undefined') {
        setNear(true);
        return;
      }
      observer.current = new IntersectionObserver(
        (entries) => {
          if (entries.some((entry) => entry.isIntersecting)) {
            observer.current?.disconnect();
            observer.current = null;
            setNear(true);
          }
        },
        { rootMargin: margin },
      );
      observer.current.observe(element);
    },
    [margin, near],
  );
  return [ref, near];
}
