import { lazy, type ReactNode } from 'react';
import { useHasHydrated } from '../../lib/use-has-hydrated';
import { OptionalPart } from '../error-boundary';

/**
 * The tooltip itself (Radix and its positioning) is not part of the first load
 * (docs/decisions/0014-first-load.md): until it has arrived, or if it cannot be fetched, the control
 * shows without one.
 */
const LoadedTooltip = lazy(async () => ({ default: (await import('./loaded-tooltip')).LoadedTooltip }));

/** Wraps one control with a tooltip showing `label` (the control keeps its own accessible name). */
export function WithTooltip({ label, children }: { label: ReactNode; children: ReactNode }) {
  // Not in the server's HTML: hydration does not wait for it (docs/decisions/0014-first-load.md).
  const hasHydrated = useHasHydrated();
  return (
    <OptionalPart fallback={children}>
      {hasHydrated ? <LoadedTooltip label={label}>{children}</LoadedTooltip> : children}
    </OptionalPart>
  );
}
