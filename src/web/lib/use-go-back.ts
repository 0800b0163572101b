import { useLocation } from 'wouter';

/** Counts route changes inside this page load, so "Back" knows whether a previous app page exists. */
let routeChanges = 0;
let lastLocation: string | null = null;

export function noteRouteChange(location: string): void {
  if (location === lastLocation) return;
  lastLocation = location;
  routeChanges += 1;
}

/** Back to the previous page of the app; home (or `fallback`) when the visit started here. */
export function useGoBack(fallback = '/'): () => void {
  const [, navigate] = useLocation();
  return () => {
    if (routeChanges > 1) window.history.back();
    else navigate(fallback);
  };
}
