import { Suspense, useState, type ReactNode } from 'react';
import { useNearViewport } from '../lib/use-near-viewport';

/**
 * A part of a long page below a phone's first screen: left out of the server's HTML (its answers
 * and its code too, when `children` are lazy) and drawn when the user scrolls near it
 * (docs/decisions/0014-first-load.md, Drawn when scrolled near). Until then, and while its code and
 * answers load, `fallback` says what is coming. `now` draws it at once (an address that asks for it);
 * once drawn it stays.
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
      {drawn ? <Suspense fallback={fallback}>{children}</Suspense> : fallback}
    </div>
  );
}
