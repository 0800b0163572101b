import { useCallback, useEffect, useState } from 'react';
import { ANY_DISTANCE_MILES } from '@domain/catalog-distance';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { ALL_CATEGORIES, type ProductQuery } from './api/get-products';

/** Typing pauses this long before the search is sent. */
export const SEARCH_DEBOUNCE_MS = 300;

/** The distance slider is applied after a 500 ms debounce (docs/rules/screens-shared.md, Constants). */
export const DISTANCE_DEBOUNCE_MS = 500;

/** Turning the filter on starts at "Any distance": the cards show their miles, nothing is hidden yet. */
export const DEFAULT_DISTANCE_MILES = ANY_DISTANCE_MILES;

interface FilterState {
  searchInput: string;
  category: string;
  isDistanceOn: boolean;
  miles: number;
}

const INITIAL_FILTERS: FilterState = {
  searchInput: '',
  category: ALL_CATEGORIES,
  isDistanceOn: false,
  miles: DEFAULT_DISTANCE_MILES,
};

/**
 * The filters outlive the home page for the rest of this page load, so coming back from a product
 * finds the same search, category, distance and (from the query cache) the pages already loaded.
 */
let rememberedFilters: FilterState = INITIAL_FILTERS;

/** For tests: start the next home page with no filters. */
export function forgetCatalogFilters(): void {
  rememberedFilters = INITIAL_FILTERS;
}

export interface CatalogFilters {
  searchInput: string;
  setSearchInput: (value: string) => void;
  category: string;
  setCategory: (value: string) => void;
  isDistanceOn: boolean;
  setDistanceOn: (value: boolean) => void;
  /** The slider's value, shown at once; the list follows it after the debounce. */
  miles: number;
  setMiles: (value: number) => void;
  /** What the grid reads. The distance counts only when the buyer has a location to measure from. */
  queryFor: (hasLocation: boolean) => ProductQuery;
}

export function useCatalogFilters(): CatalogFilters {
  const [state, setState] = useState<FilterState>(() => rememberedFilters);
  useEffect(() => {
    rememberedFilters = state;
  }, [state]);

  const search = useDebouncedValue(state.searchInput, SEARCH_DEBOUNCE_MS);
  const appliedMiles = useDebouncedValue(state.miles, DISTANCE_DEBOUNCE_MS);

  const update = useCallback(
    (patch: Partial<FilterState>) => setState((current) => ({ ...current, ...patch })),
    [],
  );

  return {
    searchInput: state.searchInput,
    setSearchInput: (searchInput) => update({ searchInput }),
    category: state.category,
    setCategory: (category) => update({ category }),
    isDistanceOn: state.isDistanceOn,
    setDistanceOn: (isDistanceOn) => update({ isDistanceOn }),
    miles: state.miles,
    setMiles: (miles) => update({ miles }),
    queryFor: (hasLocation) => ({
      search,
      category: state.category,
      maxDistance: state.isDistanceOn && hasLocation ? appliedMiles : null,
    }),
  };
}
