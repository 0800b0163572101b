import type { ReactNode } from 'react';
import { preloadableLazy } from '../../lib/preloadable-lazy';
import { OptionalPart } from '../error-boundary';

/**
 * The tooltip itself (Radix and its positioning) is not part of the first load
 * (docs/decisions/0014-first-load.md). The server renders it, and the browser loads its code before
 * it hydrates the server's HTML (`preloadTooltip`, main.tsx), so the control it wraps is hydrated
 * once and never drawn again: a press right after the page woke up is not lost on a button being
 * replaced. On a page drawn in the browser the control shows without a tooltip until the code has
 * arrived, and without one if it cannot be fetched.
 */
const { Component: LoadedTooltip, preload: preloadTooltip } = preloadableLazy(
  async () => (await import('./loaded-tooltip')).LoadedTooltip,
);
export { preloadTooltip };

/** Wraps one control with a tooltip showing `label` (the control keeps its own accessible name). */
export function WithTooltip({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <OptionalPart fallback={children}>
      <LoadedTooltip label={label}>{children}</LoadedTooltip>
    </OptionalPart>
  );
}
