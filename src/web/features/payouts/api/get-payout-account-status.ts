import { queryOptions, useQuery } from '@tanstack/react-query';
import { payoutAccountStateSchema, type PayoutAccountState } from '@domain/payout-accounts';
import { apiGet } from '../../../lib/api-client';

export const PAYOUT_ACCOUNT_STATUS_KEY = ['/api/stripe/connect/account-status'] as const;

/** The spec's polling of the payout status (docs/rules/money.md, Payout accounts): every 60 s. */
export const PAYOUT_STATUS_POLL_MS = 60_000;

/** GET /api/stripe/connect/account-status: the caller's payout account, fresh from the provider. */
export async function fetchPayoutAccountStatus(signal?: AbortSignal): Promise<PayoutAccountState> {
  return payoutAccountStateSchema.parse(await apiGet('/api/stripe/connect/account-status', signal));
}

export function usePayoutAccountStatus() {
  return useQuery(
    queryOptions({
      queryKey: PAYOUT_ACCOUNT_STATUS_KEY,
      queryFn: ({ signal }) => fetchPayoutAccountStatus(signal),
      refetchInterval: PAYOUT_STATUS_POLL_MS,
    }),
  );
}
