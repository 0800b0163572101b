import { queryOptions, useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import type { Address } from '@domain/addresses';
import { apiGet } from '../../../lib/api-client';

export const ADDRESSES_KEY = ['/api/addresses'] as const;

/** GET /api/addresses: the user's own addresses, primary first, then newest. */
export async function fetchAddresses(signal?: AbortSignal): Promise<Address[]> {
  // The schemas load with the first request, beside it, not with the page: a page the server
  // rendered has its first answers already (docs/decisions/0014-first-load.md).
  const [{ addressSchema }, body] = await Promise.all([
    import('@domain/addresses'),
    apiGet('/api/addresses', signal),
  ]);
  return z.array(addressSchema).parse(body);
}

export const addressesQueryOptions = queryOptions({
  queryKey: ADDRESSES_KEY,
  queryFn: ({ signal }) => fetchAddresses(signal),
});

export function useAddresses() {
  return useQuery(addressesQueryOptions);
}
