/** What the user does to scroll the page themselves. */
const OWN_SCROLL_EVENTS = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/**
 * Scrolls `element` to the top of the window and keeps it there while the parts above it are drawn
 * and grow (parts drawn when scrolled near: docs/decisions/0014-first-load.md), until the user
 * scrolls, presses or types, or `forMs` have passed. Returns what stops it.
 */
export function keepInView(element: Element, forMs = 3000): () => void {
  const scroll = () => element.scrollIntoView({ block: 'start' });
  scroll();
  if (typeof ResizeObserver === 'undefined') return () => undefined;
  const observer = new ResizeObserver(scroll);
  observer.observe(document.body);
  const stop = () => {
    observer.disconnect();
    window.clearTimeout(timer);
    for (const type of OWN_SCROLL_EVENTS) window.removeEventListener(type, stop);
  };
  const timer = window.setTimeout(stop, forMs);
  for (const type of OWN_SCROLL_EVENTS) window.addEventListener(type, stop, { passive: true });
  return stop;
}
