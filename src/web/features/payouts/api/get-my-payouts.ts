import { queryOptions, useQuery } from '@tanstack/react-query';
import { myPayoutsSchema, type MyPayouts } from '@domain/payouts';
import { apiGet } from '../../../lib/api-client';
import { EARNINGS_KEY } from '../../seller/api/earnings-keys';

/** GET /api/payouts: the caller's payouts per order and the sums owed, paid out and reversed. */
export async function fetchMyPayouts(signal?: AbortSignal): Promise<MyPayouts> {
  return myPayoutsSchema.parse(await apiGet('/api/payouts', signal));
}

/** Under the earnings key: an order that finishes refreshes it with the earnings. */
export function useMyPayouts() {
  return useQuery(
    queryOptions({
      queryKey: [...EARNINGS_KEY, 'payouts'] as const,
      queryFn: ({ signal }) => fetchMyPayouts(signal),
      refetchInterval: 60_000,
    }),
  );
}
