import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { sellerProductSchema, type SellerProduct } from '@domain/listings';
import { apiGet } from '../../../lib/api-client';

/** Every query about the seller's own listings starts with this key. */
export const SELLER_PRODUCTS_KEY = ['/api/seller/products'] as const;

/** GET /api/seller/products: the seller's own products in every status, newest first. */
export async function fetchSellerProducts(signal?: AbortSignal): Promise<SellerProduct[]> {
  return z.array(sellerProductSchema).parse(await apiGet('/api/seller/products', signal));
}

export const sellerProductsQueryOptions = queryOptions({
  queryKey: SELLER_PRODUCTS_KEY,
  queryFn: ({ signal }) => fetchSellerProducts(signal),
});

export function useSellerProducts() {
  return useQuery(sellerProductsQueryOptions);
}
