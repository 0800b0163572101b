import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { addressSchema, type Address } from '@domain/addresses';
import { apiGet } from '../../../lib/api-client';

export const ADDRESSES_KEY = ['/api/addresses'] as const;

/** GET /api/addresses: the user's own addresses, primary first, then newest. */
export async function fetchAddresses(signal?: AbortSignal): Promise<Address[]> {
  return z.array(addressSchema).parse(await apiGet('/api/addresses', signal));
}

export const addressesQueryOptions = queryOptions({
  queryKey: ADDRESSES_KEY,
  queryFn: ({ signal }) => fetchAddresses(signal),
});

export function useAddresses() {
  return useQuery(addressesQueryOptions);
}
