import { useMutation, useQueryClient } from '@tanstack/react-query';
import { payoutAccountStateSchema, type PayoutAccountState } from '@domain/payout-accounts';
import { apiSend } from '../../../lib/api-client';
import { PAYOUT_ACCOUNT_STATUS_KEY } from './get-payout-account-status';

/** POST /api/stripe/connect/account: creates the caller's payout account (the existing one on a second call). */
export async function createPayoutAccount(): Promise<PayoutAccountState> {
  return payoutAccountStateSchema.parse(await apiSend('POST', '/api/stripe/connect/account'));
}

export function useCreatePayoutAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPayoutAccount,
    onSuccess: (state) => queryClient.setQueryData(PAYOUT_ACCOUNT_STATUS_KEY, state),
  });
}
