import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import * as z from 'zod/mini';
import type { ProductListItem } from '@domain/catalog';
import { ANY_DISTANCE_MILES, distanceLimitOf, MIN_DISTANCE_MILES } from '@domain/catalog-distance';
import { apiGet } from '../../../lib/api-client';

export const PRODUCTS_KEY = '/api/products';
export const PRODUCTS_WITH_DISTANCE_KEY = '/api/products/with-distance';

/**
 * "All" means no category filter (docs/rules/catalog-and-orders.md, Catalog and distance: All or an exact
 * category name).
 */
export const ALL_CATEGORIES = 'All';

/** One "Load more" brings this many; divisible by the grid's 1 to 4 columns, so rows stay full. */
export const PRODUCT_PAGE_SIZE = 24;

export interface ProductQuery {
  search: string;
  category: string;
  /**
   * null: the distance filter is off and the plain list is read (GET /api/products). A number:
   * the filter is on and GET /api/products/with-distance is read, where 500 means any distance
   * (docs/rules/catalog-and-orders.md, Catalog and distance) and is sent without maxDistance, so the cards
   * still show their miles.
   */
  maxDistance: number | null;
  /** Only products with stock left (the landing's featured strip). */
  inStock?: boolean;
}

export interface ProductPage {
  limit: number;
  offset: number;
}

/** The same filters always make the same query key and URL: trimmed search, "All", miles clamped to 1–500. */
export function normaliseProductQuery({
  search,
  category,
  maxDistance,
  inStock,
}: ProductQuery): ProductQuery {
  return {
    ...(inStock ? { inStock } : {}),
    search: search.trim(),
    category: category.trim() || ALL_CATEGORIES,
    maxDistance:
      maxDistance === null
        ? null
        : Math.min(ANY_DISTANCE_MILES, Math.max(MIN_DISTANCE_MILES, Math.round(maxDistance))),
  };
}

/** The URL of one page of the grid; empty filters are left out. */
export function productsUrl(query: ProductQuery, page?: ProductPage): string {
  const { search, category, maxDistance, inStock } = normaliseProductQuery(query);
  const params = new URLSearchParams();
  if (maxDistance !== null) {
    const limit = distanceLimitOf(maxDistance);
    if (limit !== undefined) params.set('maxDistance', String(limit));
  }
  if (search) params.set('search', search);
  if (category !== ALL_CATEGORIES) params.set('category', category);
  if (inStock) params.set('inStock', 'true');
  if (page) {
    params.set('limit', String(page.limit));
    params.set('offset', String(page.offset));
  }
  const path = maxDistance === null ? PRODUCTS_KEY : PRODUCTS_WITH_DISTANCE_KEY;
  const queryString = params.toString();
  return queryString ? `${path}?${queryString}` : path;
}

/** One page of available products with their seller's card details (and miles, with the filter on). */
export async function fetchProducts(
  query: ProductQuery,
  page: ProductPage,
  signal?: AbortSignal,
): Promise<ProductListItem[]> {
  // The schemas load with the first request, beside it, not with the page: a page the server
  // rendered has its first answers already (docs/decisions/0014-first-load.md).
  const [{ productListItemSchema }, body] = await Promise.all([
    import('@domain/catalog'),
    apiGet(productsUrl(query, page), signal),
  ]);
  return z.array(productListItemSchema).parse(body);
}

/** Pages by limit/offset until a page comes back short, so the whole catalog can be reached. */
export function productsInfiniteQueryOptions(query: ProductQuery, pageSize = PRODUCT_PAGE_SIZE) {
  const normalised = normaliseProductQuery(query);
  const path = normalised.maxDistance === null ? PRODUCTS_KEY : PRODUCTS_WITH_DISTANCE_KEY;
  return infiniteQueryOptions({
    queryKey: [path, normalised, pageSize] as const,
    queryFn: ({ pageParam, signal }) =>
      fetchProducts(normalised, { limit: pageSize, offset: pageParam }, signal),
    initialPageParam: 0,
    getNextPageParam: (lastPage: ProductListItem[], _allPages, lastOffset: number) =>
      lastPage.length < pageSize ? undefined : lastOffset + lastPage.length,
  });
}

/**
 * The pages read so far, one after the other. A product that moved between two page reads (a
 * new product pushes the list down) would come twice; it is shown once.
 */
export function uniqueProducts(pages: readonly (readonly ProductListItem[])[]): ProductListItem[] {
  const seen = new Set<string>();
  return pages.flat().filter((product) => {
    if (seen.has(product.id)) return false;
    seen.add(product.id);
    return true;
  });
}

/** The grid's products. The last results stay on screen while new filters load, so it does not flicker. */
export function useProducts(query: ProductQuery) {
  const result = useInfiniteQuery({
    ...productsInfiniteQueryOptions(query),
    placeholderData: keepPreviousData,
  });
  const pages = result.data?.pages;
  const products = useMemo(() => (pages ? uniqueProducts(pages) : undefined), [pages]);
  return { ...result, products };
}

/** How many products the landing's featured strip shows. */
export const FEATURED_PRODUCT_COUNT = 8;

/**
 * The newest products a visitor can buy now, one small page: the landing's featured strip, asked
 * for only once the strip is about to be seen (docs/rules/screens-buyer.md, Routes and headers). A
 * showcase of things one cannot buy would be no showcase: products out of stock are left out.
 */
export function useFeaturedProducts(count = FEATURED_PRODUCT_COUNT) {
  const query = normaliseProductQuery({
    search: '',
    category: ALL_CATEGORIES,
    maxDistance: null,
    inStock: true,
  });
  return useQuery({
    queryKey: [PRODUCTS_KEY, query, 'featured', count] as const,
    queryFn: ({ signal }) => fetchProducts(query, { limit: count, offset: 0 }, signal),
  });
}
