/** What the user does to scroll the page themselves. */
const OWN_SCROLL_EVENTS = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/**
 * Scrolls `element` to the top of the window and keeps it there while the parts above it are drawn
 * and grow (parts drawn when scrolled near: docs/decisions/0014-first-load.md), until the user
 * scrolls, presses or types, the page has not changed size for `quietMs`, or `atMostMs` have passed
 * (a slow connection's answers can take seconds). Returns what stops it.
 */
export function keepInView(element: Element, quietMs = 1500, atMostMs = 15_000): () => void {
  const scroll = () => element.scrollIntoView({ block: 'start' });
  scroll();
  if (typeof ResizeObserver === 'undefined') return () => undefined;
  let quiet = window.setTimeout(() => stop(), quietMs);
  const observer = new ResizeObserver(() => {
    scroll();
    window.clearTimeout(quiet);
    quiet = window.setTimeout(() => stop(), quietMs);
  });
  observer.observe(document.body);
  const atMost = window.setTimeout(() => stop(), atMostMs);
  function stop() {
    observer.disconnect();
    window.clearTimeout(quiet);
    window.clearTimeout(atMost);
    for (const type of OWN_SCROLL_EVENTS) window.removeEventListener(type, stop);
  }
  for (const type of OWN_SCROLL_EVENTS) window.addEventListener(type, stop, { passive: true });
  return stop;
}
