import { LoaderCircle } from 'lucide-react';
import { cn } from '../lib/utils';

/**
 * A centred spinner with a text that screen readers announce. `fillsPage` when it stands for a
 * whole page: it then keeps the footer below the fold, so the page that replaces it moves nothing
 * on screen (docs/decisions/0014-first-load.md).
 */
export function PageLoading({
  label = 'Loading...',
  fillsPage = false,
}: {
  label?: string;
  fillsPage?: boolean;
}) {
  return (
    <div className={cn(fillsPage && 'min-h-dvh')}>
      <div
        role="status"
        className="flex min-h-[50vh] flex-col items-center justify-center gap-3 text-muted-foreground"
      >
        <LoaderCircle className="size-8 animate-spin" aria-hidden="true" />
        <span>{label}</span>
      </div>
    </div>
  );
}
