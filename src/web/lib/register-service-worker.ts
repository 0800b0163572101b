/**
 * Registers the service worker (src/web/sw.ts; docs/decisions/0019-reaching-people.md, Push and the
 * installable app). main.tsx imports this after the page has loaded, in a chunk of its own, so the
 * first load carries none of it. A browser without service workers, or one that refuses (a private
 * window), simply runs without the offline page and push.
 */
export function registerServiceWorker(): void {
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  }
}
