import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { productListItemSchema, type ProductListItem } from '@domain/catalog';
import { apiGet } from '../../../lib/api-client';

export const PRODUCTS_KEY = '/api/products';

/** "All" means no category filter (spec buyer §5: All or an exact category name). */
export const ALL_CATEGORIES = 'All';

export interface ProductFilters {
  search: string;
  category: string;
}

/** The query string of GET /api/products; empty filters are left out. */
export function productsUrl({ search, category }: ProductFilters): string {
  const params = new URLSearchParams();
  const term = search.trim();
  if (term) params.set('search', term);
  if (category && category !== ALL_CATEGORIES) params.set('category', category);
  const query = params.toString();
  return query ? `${PRODUCTS_KEY}?${query}` : PRODUCTS_KEY;
}

/** GET /api/products?search=&category=: available products with their seller's card details. */
export async function fetchProducts(
  filters: ProductFilters,
  signal?: AbortSignal,
): Promise<ProductListItem[]> {
  return z.array(productListItemSchema).parse(await apiGet(productsUrl(filters), signal));
}

export function productsQueryOptions(filters: ProductFilters) {
  const normalised = { search: filters.search.trim(), category: filters.category || ALL_CATEGORIES };
  return queryOptions({
    queryKey: [PRODUCTS_KEY, normalised] as const,
    queryFn: ({ signal }) => fetchProducts(normalised, signal),
  });
}

/** Keeps showing the last results while a new search loads, so the grid does not flicker. */
export function useProducts(filters: ProductFilters) {
  return useQuery({ ...productsQueryOptions(filters), placeholderData: keepPreviousData });
}
