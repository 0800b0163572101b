import type { QueryClient } from '@tanstack/react-query';
import { ADDRESSES_KEY } from './get-addresses';

/**
 * After any address change: the list, and the product lists, whose distances are measured from
 * the buyer's primary address (docs/rules/catalog-and-orders.md, Catalog and distance). Query keys are URLs
 * (docs/rules/screens-shared.md, Client behaviour), so the catalog's key is named by its URL here rather
 * than imported from another feature.
 */
export function invalidateAfterAddressChange(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ADDRESSES_KEY }),
    queryClient.invalidateQueries({ queryKey: ['/api/products'] }),
  ]).then(() => undefined);
}
