import { useState } from 'react';
import { useDebouncedValue } from '../../lib/use-debounced-value';

/** Typing waits this long before the list asks again (the catalog's search debounce). */
export const ADMIN_SEARCH_DEBOUNCE_MS = 300;

/**
 * The filters of one admin list: the search box (sent once typing pauses), the other filters and
 * the page. Any change of a filter goes back to page 1.
 */
export function useListFilters<F extends Record<string, string>>(initial: F) {
  const [searchText, setSearchText] = useState('');
  const [filters, setFilters] = useState<F>(initial);
  const [page, setPage] = useState(1);
  const search = useDebouncedValue(searchText.trim(), ADMIN_SEARCH_DEBOUNCE_MS);
  const [searchedFor, setSearchedFor] = useState(search);
  // A new search starts at page 1 (set during render: React re-renders at once, no effect needed).
  if (searchedFor !== search) {
    setSearchedFor(search);
    setPage(1);
  }
  return {
    searchText,
    setSearchText,
    search: search || undefined,
    /** What is typed differs from what the list was last asked for (typing has not paused yet). */
    isSearchPending: searchText.trim() !== search,
    filters,
    setFilter: <K extends keyof F>(key: K, value: F[K]) => {
      setFilters((current) => ({ ...current, [key]: value }));
      setPage(1);
    },
    page,
    setPage,
  };
}

/** What the search box, the filters and the pager of a list read and set. */
export type ListFilterState<F extends Record<string, string>> = ReturnType<typeof useListFilters<F>>;

/**
 * More text boxes of a list beside its search (an order's buyer, seller and driver): what is typed,
 * and what is sent once typing pauses, as for the search. `onSent` runs as that changes (the list
 * goes back to page 1), during the render of the component that holds both.
 */
export function useTextFilters<K extends string>(initial: Record<K, string>, onSent: () => void) {
  const [typed, setTyped] = useState(initial);
  const debounced = useDebouncedValue(typed, ADMIN_SEARCH_DEBOUNCE_MS);
  const [sent, setSent] = useState(debounced);
  if (sent !== debounced) {
    setSent(debounced);
    onSent();
  }
  return {
    typed,
    setText: (key: K, value: string) => setTyped((current) => ({ ...current, [key]: value })),
    /** A filter's text as sent: trimmed, undefined when empty. */
    sentOf: (key: K): string | undefined => debounced[key].trim() || undefined,
  };
}
