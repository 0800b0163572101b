import { startTransition, useEffect, useState, useSyncExternalStore } from 'react';

const subscribeToNothing = () => () => {};

/**
 * False while React hydrates the page the server rendered (and on the server itself), true soon
 * after, and true at once for a component first rendered in the browser. What the server cannot
 * know (local storage: the cart, the theme) or does not send (controls loaded after the first
 * screen) is shown only once this is true, so hydration meets exactly the server's HTML
 * (docs/decisions/0014-first-load.md, The first screen in the HTML). The switch after hydration is a
 * transition: React renders it in small slices and keeps what is on screen while a control's code
 * loads.
 */
export function useHasHydrated(): boolean {
  // React reads the server's value while it hydrates this component, and compares the browser's
  // value with it once committed: a difference there makes React render the component again at
  // once, synchronously, in one long task. So a component that was hydrated keeps answering false,
  // and only the transition below switches it.
  const isBrowserRender = !useIsHydrating();
  const [hasHydrated, setHasHydrated] = useState(isBrowserRender);
  useEffect(() => {
    if (!hasHydrated) startTransition(() => setHasHydrated(true));
  }, [hasHydrated]);
  return hasHydrated;
}

/**
 * Whether React is hydrating the server's HTML as it renders this component (true on the server
 * too): React reads the server's value then, the browser's otherwise. The browser's value becomes
 * the same once the server's was read, so React, comparing them after the commit, does not render
 * the component again.
 */
export function useIsHydrating(): boolean {
  const [snapshots] = useState(() => {
    let wasHydrated = false;
    return {
      get: () => wasHydrated,
      getServer: () => (wasHydrated = true),
    };
  });
  return useSyncExternalStore(subscribeToNothing, snapshots.get, snapshots.getServer);
}
