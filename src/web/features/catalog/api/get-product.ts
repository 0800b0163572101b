import { queryOptions, useQuery } from '@tanstack/react-query';
import { productDetailSchema, type ProductDetail } from '@domain/catalog';
import { apiGet, statusOf } from '../../../lib/api-client';
import { PRODUCTS_KEY } from './get-products';

/** GET /api/products/{id}: one product, available or not, with its seller's details. */
export async function fetchProduct(id: string, signal?: AbortSignal): Promise<ProductDetail> {
  return productDetailSchema.parse(await apiGet(`${PRODUCTS_KEY}/${encodeURIComponent(id)}`, signal));
}

export function productQueryOptions(id: string) {
  return queryOptions({
    queryKey: [PRODUCTS_KEY, id] as const,
    queryFn: ({ signal }) => fetchProduct(id, signal),
  });
}

export function useProduct(id: string) {
  return useQuery(productQueryOptions(id));
}

/** A 404, or a 400 for an id that cannot be one (not a UUID): either way there is no such product. */
export function isProductNotFound(error: unknown): boolean {
  const status = statusOf(error);
  return status === 404 || status === 400;
}
