import { useMutation } from '@tanstack/react-query';
import { payoutLinkSchema, type PayoutLink } from '@domain/payout-accounts';
import { apiSend } from '../../../lib/api-client';

/** POST /api/stripe/connect/dashboard-link: the provider's dashboard of the caller's payout account. */
export async function createDashboardLink(): Promise<PayoutLink> {
  return payoutLinkSchema.parse(await apiSend('POST', '/api/stripe/connect/dashboard-link'));
}

export function useCreateDashboardLink() {
  return useMutation({ mutationFn: createDashboardLink });
}
