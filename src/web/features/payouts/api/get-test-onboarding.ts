import { queryOptions, useQuery } from '@tanstack/react-query';
import { testOnboardingViewSchema, type TestOnboardingView } from '@domain/payout-accounts';
import { apiGet } from '../../../lib/api-client';

/**
 * GET /api/payouts/test-accounts/{accountId}/onboarding?token=: the test provider's onboarding
 * page, for the account's own user with the link's token (docs/rules/money.md, Payout accounts).
 */
export async function fetchTestOnboarding(
  accountId: string,
  token: string,
  signal?: AbortSignal,
): Promise<TestOnboardingView> {
  const url = `/api/payouts/test-accounts/${encodeURIComponent(accountId)}/onboarding?token=${encodeURIComponent(token)}`;
  return testOnboardingViewSchema.parse(await apiGet(url, signal));
}

export function useTestOnboarding(accountId: string, token: string) {
  return useQuery(
    queryOptions({
      queryKey: ['/api/payouts/test-accounts', accountId, 'onboarding', token] as const,
      queryFn: ({ signal }) => fetchTestOnboarding(accountId, token, signal),
    }),
  );
}
