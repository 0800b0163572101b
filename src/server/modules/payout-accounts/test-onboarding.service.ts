import type { TestPayoutAccountRow, TestPayoutAccounts } from '../../adapters/payouts/test-payout-accounts';
import type {
  TestOnboardingBody,
  TestOnboardingView,
  TestPayoutAccountView,
} from '../../../domain/payout-accounts';
import { AppError, conflict, notFound } from '../../platform/errors';
import { canManagePayoutAccount, type PolicyActor } from '../../platform/policy';
import { recordPayoutAccount, type PayoutAccountDeps } from './payout-accounts.service';

// The built-in provider's pages (docs/rules/money.md, Payout accounts): its onboarding page, where
// the user completes the simulated account, leaves it incomplete or has it restricted, and its
// dashboard page. Both are the account's own user's only (its simulated accounts are
// PayoutAccountDeps.testAccounts); the onboarding also wants the link's signed token, so an old or
// forged link does nothing.

export const PAYOUT_ACCOUNT_NOT_FOUND = 'Payout account not found';
export const LINK_NOT_VALID = 'This onboarding link is not valid. Start again from your dashboard.';
export const LINK_EXPIRED = 'This onboarding link has expired. Start again from your dashboard.';

function viewOf(row: TestPayoutAccountRow): TestPayoutAccountView {
  return { ...row.account, email: row.email, updatedAt: row.updatedAt.toISOString() };
}

async function ownAccount(
  deps: PayoutAccountDeps,
  actor: PolicyActor,
  accountId: string,
): Promise<{ testAccounts: TestPayoutAccounts; row: TestPayoutAccountRow }> {
  const testAccounts = deps.testAccounts;
  if (!testAccounts) throw notFound(PAYOUT_ACCOUNT_NOT_FOUND);
  const row = await testAccounts.findAccount(accountId);
  if (!row || !canManagePayoutAccount(actor, row)) throw notFound(PAYOUT_ACCOUNT_NOT_FOUND);
  return { testAccounts, row };
}

function checkedLink(testAccounts: TestPayoutAccounts, accountId: string, token: string) {
  const check = testAccounts.checkOnboardingToken(accountId, token);
  if (check.result === 'expired') throw conflict(LINK_EXPIRED);
  if (check.result !== 'valid') throw new AppError('not_found', LINK_NOT_VALID);
  return check.link;
}

/** GET /api/payouts/test-accounts/{accountId}/onboarding: what the onboarding page shows. */
export async function viewTestOnboarding(
  deps: PayoutAccountDeps,
  actor: PolicyActor,
  accountId: string,
  token: string,
): Promise<TestOnboardingView> {
  const { testAccounts, row } = await ownAccount(deps, actor, accountId);
  const link = checkedLink(testAccounts, accountId, token);
  return { account: viewOf(row), returnUrl: link.returnUrl };
}

/**
 * POST /api/payouts/test-accounts/{accountId}/onboarding: records the choice on the simulated
 * account, stores the new status on the user (paying what they are owed once it is ready, as the
 * Connect webhook does with Stripe) and answers where the browser returns.
 */
export async function submitTestOnboarding(
  deps: PayoutAccountDeps,
  actor: PolicyActor,
  accountId: string,
  body: TestOnboardingBody,
): Promise<{ returnUrl: string }> {
  const { testAccounts, row } = await ownAccount(deps, actor, accountId);
  const link = checkedLink(testAccounts, accountId, body.token);
  const account = await testAccounts.recordOnboarding(accountId, body.outcome);
  await recordPayoutAccount(deps, row.userId, account);
  deps.log.info({ userId: row.userId, accountId, outcome: body.outcome }, 'test payout onboarding recorded');
  return { returnUrl: link.returnUrl };
}

/** GET /api/payouts/test-accounts/{accountId}: the simulated account's dashboard page. */
export async function viewTestPayoutAccount(
  deps: PayoutAccountDeps,
  actor: PolicyActor,
  accountId: string,
): Promise<TestPayoutAccountView> {
  const { row } = await ownAccount(deps, actor, accountId);
  return viewOf(row);
}
