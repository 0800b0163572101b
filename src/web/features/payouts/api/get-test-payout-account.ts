import { queryOptions, useQuery } from '@tanstack/react-query';
import { testPayoutAccountViewSchema, type TestPayoutAccountView } from '@domain/payout-accounts';
import { apiGet } from '../../../lib/api-client';

/** GET /api/payouts/test-accounts/{accountId}: the test provider's dashboard of the caller's account. */
export async function fetchTestPayoutAccount(
  accountId: string,
  signal?: AbortSignal,
): Promise<TestPayoutAccountView> {
  return testPayoutAccountViewSchema.parse(
    await apiGet(`/api/payouts/test-accounts/${encodeURIComponent(accountId)}`, signal),
  );
}

export function useTestPayoutAccount(accountId: string) {
  return useQuery(
    queryOptions({
      queryKey: ['/api/payouts/test-accounts', accountId] as const,
      queryFn: ({ signal }) => fetchTestPayoutAccount(accountId, signal),
    }),
  );
}
