import { z } from 'zod';

/**
 * Payout accounts of sellers and drivers (docs/rules/money.md, Payout accounts): the calls of
 * the payout card on the seller and driver dashboards, and of the test provider's onboarding page.
 */

export const payoutAccountStatusSchema = z.enum(['active', 'pending', 'restricted']);
export type PayoutAccountStatusName = z.infer<typeof payoutAccountStatusSchema>;

/** GET /api/stripe/connect/account-status; status is null until an account exists. */
export const payoutAccountStateSchema = z.object({
  hasAccount: z.boolean(),
  onboardingComplete: z.boolean(),
  status: payoutAccountStatusSchema.nullable(),
  chargesEnabled: z.boolean(),
  payoutsEnabled: z.boolean(),
});
export type PayoutAccountState = z.infer<typeof payoutAccountStateSchema>;

/** The dashboards that hold the payout card; the onboarding returns to the one it started from. */
export const payoutDashboardSchema = z.enum(['seller', 'driver']);
export type PayoutDashboard = z.infer<typeof payoutDashboardSchema>;

export const PAYOUT_DASHBOARD_PATHS: Readonly<Record<PayoutDashboard, string>> = {
  seller: '/seller/dashboard',
  driver: '/driver/dashboard',
};

/** POST /api/stripe/connect/onboarding-link: which dashboard to come back to (the caller's role when left out). */
export const onboardingLinkBodySchema = z.strictObject({ dashboard: payoutDashboardSchema.optional() });
export type OnboardingLinkBody = z.infer<typeof onboardingLinkBodySchema>;

/** The answer of the onboarding-link and dashboard-link calls. */
export const payoutLinkSchema = z.object({ url: z.string() });
export type PayoutLink = z.infer<typeof payoutLinkSchema>;

/** The query string the onboarding returns with; the card then shows a fresh status. */
export const PAYOUT_RETURN_PARAM = 'payouts';

// The built-in test provider's onboarding and dashboard pages (pages of this server).

export const testPayoutAccountParamsSchema = z.object({
  accountId: z.string().regex(/^tacct_[0-9a-f]{24}$/, 'Must be a test payout account id'),
});

export const testOnboardingQuerySchema = z.object({ token: z.string().min(1).max(2000) });

export const testOnboardingOutcomeSchema = z.enum(['complete', 'incomplete', 'restricted']);
export type TestOnboardingOutcomeName = z.infer<typeof testOnboardingOutcomeSchema>;

export const testOnboardingBodySchema = z.strictObject({
  token: z.string().min(1).max(2000),
  outcome: testOnboardingOutcomeSchema,
});
export type TestOnboardingBody = z.infer<typeof testOnboardingBodySchema>;

/** What the simulated account's pages show: the account and, on the onboarding page, where to return. */
export const testPayoutAccountViewSchema = z.object({
  accountId: z.string(),
  email: z.string(),
  onboardingComplete: z.boolean(),
  status: payoutAccountStatusSchema,
  chargesEnabled: z.boolean(),
  payoutsEnabled: z.boolean(),
  updatedAt: z.string(),
});
export type TestPayoutAccountView = z.infer<typeof testPayoutAccountViewSchema>;

export const testOnboardingViewSchema = z.object({
  account: testPayoutAccountViewSchema,
  returnUrl: z.string(),
});
export type TestOnboardingView = z.infer<typeof testOnboardingViewSchema>;

/** The answer of the onboarding page's choice: where the browser goes next. */
export const testOnboardingResultSchema = z.object({ returnUrl: z.string() });

/**
 * What makes a payout account ready (docs/rules/money.md, Payout accounts): the provider's account
 * exists, its onboarding is complete and its status is active.
 */
export function isPayoutAccountReady(stored: {
  accountId: string | null;
  status: string | null;
  onboardingComplete: boolean;
}): boolean {
  return stored.accountId !== null && stored.onboardingComplete && stored.status === 'active';
}
