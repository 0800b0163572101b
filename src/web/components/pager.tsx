import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from './ui/button';
import { cn } from '../lib/utils';

/**
 * Previous/Next and "Page X of Y" under a paged list (docs/rules/screens-work.md, Admin screens); hidden
 * when there is one page or fewer. Y is followed by "+" when it is a lower bound.
 */
export function Pager({
  page,
  pageCount,
  pageCountIsLowerBound = false,
  onPageChange,
  label,
  className,
}: {
  page: number;
  pageCount: number;
  /** More pages may follow than `pageCount` says (a search counted up to a limit): "Page 1 of 100+". */
  pageCountIsLowerBound?: boolean;
  onPageChange: (page: number) => void;
  /** What is paged, for assistive technology ("Users pages"). */
  label: string;
  className?: string;
}) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={label} className={cn('flex items-center justify-between gap-3 pt-4', className)}>
      <Button variant="outline" size="sm" onClick={() => onPageChange(page - 1)} disabled={page <= 1}>
        <ChevronLeft aria-hidden="true" />
        Previous
      </Button>
      <p className="text-sm whitespace-nowrap text-muted-foreground" aria-live="polite">
        Page {page} of {pageCount}
        {pageCountIsLowerBound ? '+' : ''}
      </p>
      <Button variant="outline" size="sm" onClick={() => onPageChange(page + 1)} disabled={page >= pageCount}>
        Next
        <ChevronRight aria-hidden="true" />
      </Button>
    </nav>
  );
}
