import { useState, type ReactNode } from 'react';
import { useNearViewport } from '../lib/use-near-viewport';
import { ErrorBoundary } from './error-boundary';
import { Suspense } from './suspense';

/**
 * A part of a long page below a phone's first screen: left out of the server's HTML (its answers
 * and its code too, when `children` are lazy) and drawn when the user scrolls near it
 * (docs/decisions/0014-first-load.md, Drawn when scrolled near). Until then, and while its code and
 * answers load, `fallback` says what is coming. `now` draws it at once (an address that asks for it);
 * once drawn it stays. If its code cannot be fetched (a deploy replaced it, the connection dropped)
 * or it throws, it says so in its place, with Try Again, and the rest of the page stays.
 */
export function WhenScrolledNear({
  children,
  fallback,
  className,
  now = false,
}: {
  children: ReactNode;
  fallback: ReactNode;
  className?: string;
  now?: boolean;
}) {
  const [watch, near] = useNearViewport<HTMLDivElement>();
  const [drawn, setDrawn] = useState(false);
  if ((near || now) && !drawn) setDrawn(true);
  return (
    <div ref={watch} className={className}>
      {drawn ? (
        <ErrorBoundary>
          <Suspense fallback={fallback}>{children}</Suspense>
        </ErrorBoundary>
      ) : (
        fallback
      )}
    </div>
  );
}
