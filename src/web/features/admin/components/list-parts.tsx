import type { ReactNode } from 'react';
import { RotateCw, Search } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { cn } from '../../../lib/utils';

/** The search box of an admin list, labelled for assistive technology. */
export function SearchBox({
  id,
  label,
  placeholder,
  value,
  onChange,
}: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="grid min-w-0 flex-1 gap-1.5 sm:min-w-64">
      <Label htmlFor={id} className="sr-only">
        {label}
      </Label>
      <div className="relative">
        <Search
          className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
          aria-hidden="true"
        />
        <Input
          id={id}
          type="search"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          placeholder={placeholder}
          className="pl-9"
          autoComplete="off"
          data-testid={`input-${id}`}
        />
      </div>
    </div>
  );
}

/** A labelled select of a list's filter. */
export function FilterSelect<V extends string>({
  id,
  label,
  value,
  options,
  onChange,
  className,
}: {
  id: string;
  label: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
  className?: string;
}) {
  return (
    <div className={cn('grid gap-1.5 sm:w-48', className)}>
      <Label htmlFor={id} className="sr-only">
        {label}
      </Label>
      <Select value={value} onValueChange={(next) => onChange(next as V)}>
        <SelectTrigger id={id} aria-label={label} data-testid={`select-${id}`}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {options.map((option) => (
            <SelectItem key={option.value} value={option.value} data-testid={`option-${id}-${option.value}`}>
              {option.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}

export function Toolbar({ children }: { children: ReactNode }) {
  return <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center">{children}</div>;
}

/** Loading, failure (with Try Again) and "nothing found" for a list; the list itself otherwise. */
export function ListState({
  isLoading,
  isError,
  isEmpty,
  emptyText,
  what,
  onRetry,
  children,
}: {
  isLoading: boolean;
  isError: boolean;
  isEmpty: boolean;
  emptyText: string;
  /** "users", "orders": in "Loading users..." and "The users could not be loaded." */
  what: string;
  onRetry: () => void;
  children: ReactNode;
}) {
  if (isLoading) {
    return (
      <p role="status" className="py-8 text-center text-sm text-muted-foreground">
        Loading {what}...
      </p>
    );
  }
  if (isError) {
    return (
      <div role="alert" className="flex flex-col items-start gap-3 rounded-lg border p-4 text-sm">
        <span>The {what} could not be loaded.</span>
        <Button variant="outline" size="sm" onClick={onRetry}>
          <RotateCw aria-hidden="true" />
          Try Again
        </Button>
      </div>
    );
  }
  if (isEmpty) {
    return <p className="py-8 text-center text-sm text-muted-foreground">{emptyText}</p>;
  }
  return children;
}

/** A table that scrolls sideways on narrow screens instead of squeezing its columns. */
export function DataTable({
  caption,
  minWidthClass = 'min-w-[40rem]',
  children,
}: {
  caption: string;
  /** Below this width the table scrolls sideways. */
  minWidthClass?: string;
  children: ReactNode;
}) {
  return (
    <div className="overflow-x-auto rounded-lg border">
      <table className={cn('w-full text-left text-sm', minWidthClass)}>
        <caption className="sr-only">{caption}</caption>
        {children}
      </table>
    </div>
  );
}

export const thClass =
  'border-b bg-muted/50 px-3 py-2.5 text-xs font-medium uppercase tracking-wide text-muted-foreground';
export const tdClass = 'border-b px-3 py-2.5 align-middle';

/** "Showing 11–20 of 1,000". */
export function rangeText(page: number, pageSize: number, shown: number, total: number): string {
  if (total === 0) return 'Nothing to show';
  const first = (page - 1) * pageSize + 1;
  return `Showing ${first.toLocaleString('en-US')}–${(first + shown - 1).toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`;
}
