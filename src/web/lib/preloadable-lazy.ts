import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * React.lazy that can be loaded ahead, and that renders at once, without suspending, once loaded.
 * The browser loads the first screen's lazy parts before it hydrates the server's HTML, so that
 * hydration finishes in one pass and a press on the page is never lost on a part still waiting for
 * its code (docs/decisions/0014-first-load.md, The first screen in the HTML).
 */
export function preloadableLazy<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
): { Component: LazyExoticComponent<ComponentType<Props>>; preload: () => Promise<unknown> } {
  let loaded: { default: ComponentType<Props> } | undefined;
  let loading: Promise<{ default: ComponentType<Props> }> | undefined;
  const preload = () => (loading ??= load().then((component) => (loaded = { default: component })));
  const Component = lazy(() => {
    if (!loaded) return preload();
    const module = loaded;
    // A thenable that calls back at once: React.lazy then has the module without suspending.
    // The cast: React.lazy's type asks for a Promise, and it only ever calls `then`.
    const resolved = { then: (onFulfilled: (value: typeof module) => void) => onFulfilled(module) };
    return resolved as unknown as Promise<typeof module>;
  });
  return { Component, preload };
}
