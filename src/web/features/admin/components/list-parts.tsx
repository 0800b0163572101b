import type { ComponentProps, ReactNode } from 'react';
import { Download, Loader2, RotateCw, Search } from 'lucide-react';
import { ADMIN_PAGE_SIZE, type Page } from '@domain/admin';
import type { Instant } from '@domain/marketplace-time';
import { capitalise } from '@domain/roles';
import { Pager } from '../../../components/pager';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { formatDateTime } from '../../../lib/format';
import { cn } from '../../../lib/utils';
import { queryStringOf } from '../api/admin-data';
import type { ListFilterState } from '../use-list-filters';
import { formatCount } from '@domain/format-count';

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
        <SelectTrigger id={id} aria-label={label}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {options.map((option) => (
            <SelectItem key={option.value} value={option.value}>
              {option.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}

/** One select of a list's filters: which filter it sets, with its own id, label and options. */
export type ListFilter<F extends Record<string, string>> = {
  [K in keyof F]: { key: K; id: string; label: string; options: readonly { value: F[K]; label: string }[] };
}[keyof F];

/**
 * The search box of a list and its filters, in that order, bound to the list's state; then any
 * further controls (Export CSV).
 */
export function ListToolbar<F extends Record<string, string>>({
  list,
  search,
  filters = [],
  children,
}: {
  list: ListFilterState<F>;
  search: { id: string; label: string; placeholder: string };
  filters?: readonly ListFilter<F>[];
  children?: ReactNode;
}) {
  return (
    <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center">
      <SearchBox {...search} value={list.searchText} onChange={list.setSearchText} />
      {filters.map((filter) => (
        <FilterSelect<F[keyof F]>
          key={filter.id}
          id={filter.id}
          label={filter.label}
          value={list.filters[filter.key]}
          options={filter.options}
          onChange={(value) => list.setFilter(filter.key, value)}
        />
      ))}
      {children}
    </div>
  );
}

/** What a list's query gives (a TanStack Query result). */
interface ListQuery<D> {
  data: D | undefined;
  isLoading: boolean;
  isError: boolean;
  /** The rows shown are an earlier answer's, kept while the answer to a new search or filter loads. */
  isPlaceholderData?: boolean;
  refetch: () => unknown;
}

/** Loading, failure (with Try Again) and "nothing found" for a list; the list itself otherwise. */
export function ListState({
  query,
  isEmpty,
  emptyText,
  what,
  children,
}: {
  query: ListQuery<unknown>;
  isEmpty: boolean;
  emptyText: string;
  /** "users", "orders": in "Loading users..." and "The users could not be loaded." */
  what: string;
  children: ReactNode;
}) {
  if (query.isLoading) {
    return (
      <p role="status" className="py-8 text-center text-sm text-muted-foreground">
        Loading {what}...
      </p>
    );
  }
  if (query.isError) {
    return (
      <div role="alert" className="flex flex-col items-start gap-3 rounded-lg border p-4 text-sm">
        <span>The {what} could not be loaded.</span>
        <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
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

/**
 * One page of a list (docs/rules/screens-work.md, Admin screens): its loading, failure and "nothing
 * found" states, "Showing 11–20 of 1,000" above the items and the pager under them.
 */
export function PagedList<T>({
  query,
  emptyText,
  what,
  onPageChange,
  showRange = true,
  isSearchPending = false,
  children,
}: {
  query: ListQuery<Page<T>>;
  /** Typing has changed the search, and the list has not been asked for it yet. */
  isSearchPending?: boolean;
  emptyText: string;
  /** "users": also names the pager for assistive technology ("Users pages"). */
  what: string;
  onPageChange: (page: number) => void;
  /** Whether "Showing 11–20 of 1,000" stands above the items. */
  showRange?: boolean;
  /** The items of the page as the list shows them. */
  children: (items: T[]) => ReactNode;
}) {
  const data = query.data;
  // Rows of an earlier search stay in sight while the new one is asked for, but cannot be pressed:
  // an admin must never open, or suspend, a user the new search no longer lists
  // (docs/rules/screens-work.md, Admin screens).
  const isStale = isSearchPending || query.isPlaceholderData === true;
  return (
    <>
      {isStale && data?.items.length === 0 ? (
        <p role="status" className="py-8 text-center text-sm text-muted-foreground">
          Searching {what}...
        </p>
      ) : (
        <ListState query={query} isEmpty={data?.items.length === 0} emptyText={emptyText} what={what}>
          {data ? (
            <div className="relative" data-testid="list-results" data-stale={isStale}>
              {isStale ? (
                <p role="status" className="mb-2 flex items-center gap-2 text-xs font-medium text-foreground">
                  <Loader2 className="size-3.5 animate-spin" aria-hidden="true" />
                  Searching {what}...
                </p>
              ) : showRange ? (
                <p className="mb-2 text-xs text-muted-foreground">
                  {rangeText(
                    data.page,
                    ADMIN_PAGE_SIZE,
                    data.items.length,
                    data.total,
                    data.totalIsLowerBound,
                  )}
                </p>
              ) : null}
              <div
                className={cn('transition-opacity', isStale && 'pointer-events-none select-none opacity-40')}
                aria-busy={isStale}
                inert={isStale}
                data-testid="list-rows"
              >
                {children(data.items)}
                <Pager
                  page={data.page}
                  pageCount={data.pageCount}
                  pageCountIsLowerBound={data.totalIsLowerBound}
                  onPageChange={onPageChange}
                  label={`${capitalise(what)} pages`}
                />
              </div>
            </div>
          ) : null}
        </ListState>
      )}
    </>
  );
}

/** A column heading of a DataTable: its text, or its text and classes of its own (`text-right`). */
export type Column = string | { label: string; className: string };

const thClass =
  'border-b bg-muted/50 px-3 py-2.5 text-xs font-medium uppercase tracking-wide text-muted-foreground';

/**
 * A list's table. Below the md breakpoint each row is a card of its own (its first cell on top,
 * then one "label value" line per cell, then its actions), so a phone never scrolls a row sideways
 * away from its name; from md up it is a table that scrolls sideways instead of squeezing its
 * columns. Rows are `<tr className={rowClass}>` of `Cell`s.
 */
export function DataTable({
  caption,
  minWidthClass = 'lg:min-w-[40rem]',
  columns,
  children,
}: {
  caption: string;
  /** From lg up, below this width the table scrolls sideways (an `lg:min-w-*` class). */
  minWidthClass?: string;
  columns: readonly Column[];
  children: ReactNode;
}) {
  return (
    <div className="rounded-lg border lg:overflow-x-auto">
      <table
        className={cn(
          'block w-full text-left text-sm lg:table lg:[&>tbody>tr:last-child>td]:border-b-0',
          minWidthClass,
        )}
      >
        <caption className="sr-only">{caption}</caption>
        <thead className="hidden lg:table-header-group">
          <tr>
            {columns.map((column) =>
              typeof column === 'string' ? (
                <th key={column} className={thClass}>
                  {column}
                </th>
              ) : (
                <th key={column.label} className={`${thClass} ${column.className}`}>
                  {column.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody className="block lg:table-row-group">{children}</tbody>
      </table>
    </div>
  );
}

/** A row of a DataTable: a card below md, a table row from md up. */
export const rowClass =
  'flex flex-col gap-1 border-b px-3 py-3 last:border-b-0 sm:grid sm:grid-cols-2 sm:gap-x-8 lg:table-row lg:border-b-0 lg:p-0';

const cellClass = 'lg:table-cell lg:border-b lg:px-3 lg:py-2.5 lg:align-middle';

/**
 * A cell of a DataTable. With a `label` (its column heading) a phone shows it as "label  value"
 * (the label drawn by CSS, from `data-label`: the table's headings say it from md up); without one
 * the cell takes the card's whole width: the row's name on top, or its actions.
 */
export function Cell({ label, className, children, ...props }: ComponentProps<'td'> & { label?: string }) {
  if (!label) {
    return (
      <td className={cn('block sm:col-span-2', cellClass, className)} {...props}>
        {children}
      </td>
    );
  }
  return (
    <td
      data-label={label}
      className={cn(
        'flex items-baseline justify-between gap-3 before:shrink-0 before:text-xs before:font-medium before:text-muted-foreground before:content-[attr(data-label)] lg:before:content-none',
        cellClass,
        className,
      )}
      {...props}
    >
      {/* One box on a phone, so the value sits right of its label; gone from md up. */}
      <div className="min-w-0 max-lg:text-right lg:contents">{children}</div>
    </td>
  );
}

/** When a row was made, in the marketplace's time zone, on one line. */
export function TimeCell({ at, label }: { at: Instant; label: string }) {
  return (
    <Cell label={label} className="whitespace-nowrap text-muted-foreground">
      {formatDateTime(at)}
    </Cell>
  );
}

/**
 * Export CSV: a plain download of the list's export (`/api/admin/orders.csv`) with the filters it
 * shows now, every matching row (docs/rules/known-differences.md, Admin).
 */
export function ExportCsvLink({
  path,
  filters,
  what,
}: {
  path: string;
  filters: Record<string, string | undefined>;
  /** "orders": names the file's contents for assistive technology and the test id. */
  what: string;
}) {
  return (
    <Button asChild variant="outline" className="self-start">
      <a
        href={`${path}${queryStringOf(filters)}`}
        download
        title={`Download the ${what} these filters show as a CSV file`}
      >
        <Download aria-hidden="true" />
        Export CSV
      </a>
    </Button>
  );
}

/** "Showing 11–20 of 1,000". */
export function rangeText(
  page: number,
  pageSize: number,
  shown: number,
  total: number,
  totalIsLowerBound = false,
): string {
  if (total === 0) return 'Nothing to show';
  const first = (page - 1) * pageSize + 1;
  // A search that matched more than was counted: "of 1,000+" (docs/rules/known-differences.md, Admin).
  return `Showing ${formatCount(first)}–${formatCount(first + shown - 1)} of ${formatCount(total)}${totalIsLowerBound ? '+' : ''}`;
}
