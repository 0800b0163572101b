import { useMutation, useQueryClient } from '@tanstack/react-query';
import { failedPayoutSchema, type FailedPayout } from '@domain/payouts';
import { apiSend } from '../../../lib/api-client';
import { invalidateAdminData } from './admin-data';

/**
 * POST /api/admin/payouts/{id}/retry: sends a payout the provider refused again, now
 * (docs/decisions/0018-money-against-stripe.md, Failed payouts); answers it after the attempt.
 */
export async function retryPayout(payoutId: string): Promise<FailedPayout> {
  return failedPayoutSchema.parse(
    await apiSend('POST', `/api/admin/payouts/${encodeURIComponent(payoutId)}/retry`),
  );
}

export function useRetryPayout(callbacks: {
  onDone: (payout: FailedPayout) => void;
  onFailed: (error: unknown) => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryPayout,
    onSuccess: (payout) => {
      callbacks.onDone(payout);
      return invalidateAdminData(queryClient);
    },
    onError: (error) => callbacks.onFailed(error),
  });
}
