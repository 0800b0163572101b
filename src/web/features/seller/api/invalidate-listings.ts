import type { QueryClient } from '@tanstack/react-query';
import { SELLER_PRODUCTS_KEY } from './get-seller-products';

/** The public catalog's queries all start with this path (home grid, product pages, galleries). */
const PUBLIC_PRODUCTS_KEY = '/api/products';

/**
 * After a listing changes, the seller's list and every public view of products are read again, so
 * home shows a new listing and stops showing a cancelled one.
 */
export function invalidateListings(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: SELLER_PRODUCTS_KEY }),
    queryClient.invalidateQueries({
      predicate: (query) =>
        typeof query.queryKey[0] === 'string' && query.queryKey[0].startsWith(PUBLIC_PRODUCTS_KEY),
    }),
  ]).then(() => undefined);
}
