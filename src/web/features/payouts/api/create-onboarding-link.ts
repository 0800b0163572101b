import { useMutation } from '@tanstack/react-query';
import { payoutLinkSchema, type PayoutDashboard, type PayoutLink } from '@domain/payout-accounts';
import { apiSend } from '../../../lib/api-client';

/**
 * POST /api/stripe/connect/onboarding-link: where the caller completes their payout account; the
 * provider sends them back to `dashboard` (docs/rules/money.md, Payout accounts).
 */
export async function createOnboardingLink(dashboard: PayoutDashboard): Promise<PayoutLink> {
  return payoutLinkSchema.parse(await apiSend('POST', '/api/stripe/connect/onboarding-link', { dashboard }));
}

export function useCreateOnboardingLink() {
  return useMutation({ mutationFn: createOnboardingLink });
}
