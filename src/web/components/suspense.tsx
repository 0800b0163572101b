import { Suspense as ReactSuspense, type ReactNode } from 'react';
import { AfterHydration } from '../lib/early-input';

/**
 * React's Suspense, ending in `AfterHydration`: the app's only Suspense (eslint.config.js).
 *
 * React hydrates each Suspense boundary of the server's HTML on its own, after the part around it.
 * A person who types into a text box inside one after the rest has hydrated, but before it has
 * (a slow phone, the admin's user search in its tab), types into a box React does not see yet; when
 * React then hydrates it, it takes the typed value as the one it rendered and never reports it: the
 * search did not filter. Hydrating, each boundary hands over what was typed into it meanwhile
 * (docs/decisions/0014-first-load.md, Typing before hydration). Rendered in the browser alone, it
 * changes nothing.
 */
export function Suspense({ fallback, children }: { fallback: ReactNode; children: ReactNode }) {
  return (
    <ReactSuspense fallback={fallback}>
      {children}
      <AfterHydration />
    </ReactSuspense>
  );
}
