import { useMutation } from '@tanstack/react-query';
import { testOnboardingResultSchema, type TestOnboardingOutcomeName } from '@domain/payout-accounts';
import { apiSend } from '../../../lib/api-client';

export interface TestOnboardingChoice {
  accountId: string;
  token: string;
  outcome: TestOnboardingOutcomeName;
}

/** POST /api/payouts/test-accounts/{accountId}/onboarding: records the choice; answers where to return. */
export async function submitTestOnboarding(choice: TestOnboardingChoice): Promise<{ returnUrl: string }> {
  return testOnboardingResultSchema.parse(
    await apiSend('POST', `/api/payouts/test-accounts/${encodeURIComponent(choice.accountId)}/onboarding`, {
      token: choice.token,
      outcome: choice.outcome,
    }),
  );
}

export function useSubmitTestOnboarding() {
  return useMutation({ mutationFn: submitTestOnboarding });
}
