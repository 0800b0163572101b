import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { PayoutAccount, PayoutAccounts } from '../../adapters/payouts/payout-provider';
import type { TestPayoutAccounts } from '../../adapters/payouts/test-payout-accounts';
import {
  PaymentProviderUnavailableError,
  WebhookSignatureError,
} from '../../adapters/payments/payment-provider';
import { UnknownPayoutAccountError } from '../../adapters/payouts/payout-account-errors';
import type { PayoutAccountWebhookEvent } from '../../adapters/payouts/stripe-payout-accounts';
import {
  PAYOUT_DASHBOARD_PATHS,
  PAYOUT_RETURN_PARAM,
  type OnboardingLinkBody,
  type PayoutAccountState,
  type PayoutDashboard,
} from '../../../domain/payout-accounts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import { canHavePayoutAccount, hasRole, type PolicyActor } from '../../platform/policy';
import { callProvider } from '../payments/payment-deps';
import {
  attachPayoutAccount,
  findStoredPayoutAccount,
  findUserIdByPayoutAccount,
  storePayoutAccountState,
  type StoredPayoutAccount,
} from '../users/user-records';

/** What the payout-account operations need (docs/rules/money.md, Payout accounts). */
export interface PayoutAccountDeps {
  db: Db;
  accounts: PayoutAccounts;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /**
   * Pays what the user is owed now that their account is ready (payouts' settleOwedPayouts). Runs
   * after the account's state is committed; its failure is logged, never the caller's.
   */
  settleOwed: (userId: string) => Promise<unknown>;
  /** The built-in provider's simulated accounts, for its own pages: present only while it runs. */
  testAccounts: TestPayoutAccounts | undefined;
}

export const NO_PAYOUT_ROLE = 'You need the seller or driver role for this.';
export const SET_UP_PAYOUTS_FIRST = 'Set up payouts first.';
export const COMPLETE_SETUP_FIRST = 'Complete your payout setup first.';
export const ACCOUNT_UNKNOWN_TO_PROVIDER =
  'Your payout account is not known to the payout provider. Please contact support.';

/** A call about the user's account: unreachable is a 503, an account the provider does not know a 409. */
async function callAboutAccount<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await callProvider(call);
  } catch (error) {
    if (error instanceof UnknownPayoutAccountError) throw conflict(ACCOUNT_UNKNOWN_TO_PROVIDER);
    throw error;
  }
}

function assertPayoutRole(actor: PolicyActor): void {
  if (!canHavePayoutAccount(actor)) throw forbidden(NO_PAYOUT_ROLE);
}

function stateOf(stored: StoredPayoutAccount): PayoutAccountState {
  if (stored.accountId === null)
    return {
      hasAccount: false,
      onboardingComplete: false,
      status: null,
      chargesEnabled: false,
      payoutsEnabled: false,
    };
  const status = stored.status === 'active' || stored.status === 'restricted' ? stored.status : 'pending';
  return {
    hasAccount: true,
    onboardingComplete: stored.onboardingComplete,
    status,
    chargesEnabled: stored.chargesEnabled,
    payoutsEnabled: stored.payoutsEnabled,
  };
}

function stateFromProvider(account: PayoutAccount): PayoutAccountState {
  return {
    hasAccount: true,
    onboardingComplete: account.onboardingComplete,
    status: account.status,
    chargesEnabled: account.chargesEnabled,
    payoutsEnabled: account.payoutsEnabled,
  };
}

async function storedOf(deps: PayoutAccountDeps, userId: string): Promise<StoredPayoutAccount> {
  const stored = await findStoredPayoutAccount(deps.db, userId);
  if (!stored) throw notFound();
  return stored;
}

/**
 * Stores the provider's view of a user's account; when that made the account ready, pays what the
 * user is owed (after the commit, never failing the caller).
 */
export async function recordPayoutAccount(
  deps: PayoutAccountDeps,
  userId: string,
  account: PayoutAccount,
): Promise<void> {
  const change = await storePayoutAccountState(deps.db, userId, account);
  if (!change || change.wasReady || !change.isReady) return;
  deps.log.info({ userId, accountId: account.accountId }, 'payout account ready; settling owed payouts');
  try {
    await deps.settleOwed(userId);
  } catch (error) {
    deps.log.error({ err: error, userId }, 'settling owed payouts failed; the retry job pays them later');
  }
}

/**
 * POST /api/stripe/connect/account: creates the caller's payout account at the provider, once. A
 * second call (or a racing one) answers the account there is; the provider is asked with the user
 * as its idempotency key, so it makes one account even when the answer was lost.
 */
export async function createOwnPayoutAccount(
  deps: PayoutAccountDeps,
  actor: PolicyActor,
): Promise<{ created: boolean; state: PayoutAccountState }> {
  assertPayoutRole(actor);
  const stored = await storedOf(deps, actor.id);
  if (stored.accountId !== null) return { created: false, state: stateOf(stored) };
  const { accountId } = await callProvider(() =>
    deps.accounts.createAccount({ userId: actor.id, email: stored.email }),
  );
  const created = await attachPayoutAccount(deps.db, actor.id, accountId);
  if (!created) {
    const now = await storedOf(deps, actor.id);
    if (now.accountId !== accountId)
      deps.log.warn(
        { userId: actor.id, accountId, kept: now.accountId },
        'a second payout account was made for a user; the first one is kept',
      );
    return { created: false, state: stateOf(now) };
  }
  return { created: true, state: stateOf(await storedOf(deps, actor.id)) };
}

/**
 * GET /api/stripe/connect/account-status: refreshed from the provider on every call (the card asks
 * every 60 s); the stored state answers when the provider cannot be reached.
 */
export async function getOwnPayoutAccountState(
  deps: PayoutAccountDeps,
  actor: PolicyActor,
): Promise<PayoutAccountState> {
  assertPayoutRole(actor);
  const stored = await storedOf(deps, actor.id);
  if (stored.accountId === null) return stateOf(stored);
  let account: PayoutAccount;
  try {
    account = await deps.accounts.retrieveAccount(stored.accountId);
  } catch (error) {
    if (!(error instanceof PaymentProviderUnavailableError || error instanceof UnknownPayoutAccountError))
      throw error;
    deps.log.warn(
      { err: error, userId: actor.id },
      'payout account not read from the provider; answering the stored status',
    );
    return stateOf(stored);
  }
  await recordPayoutAccount(deps, actor.id, account);
  return stateFromProvider(account);
}

/** The dashboard the onboarding returns to: the one asked for, else the caller's current one. */
function dashboardOf(
  actor: PolicyActor & { role: string },
  asked: PayoutDashboard | undefined,
): PayoutDashboard {
  if (asked) {
    if (!hasRole(actor, asked)) throw forbidden(`You need the ${asked} role for this.`);
    return asked;
  }
  if (actor.role === 'driver' || actor.role === 'seller') return actor.role;
  return hasRole(actor, 'seller') ? 'seller' : 'driver';
}

/**
 * POST /api/stripe/connect/onboarding-link: where the caller completes their account, returning to
 * the dashboard they came from (`?payouts=return`; `?payouts=refresh` when the link expired).
 */
export async function createOwnOnboardingLink(
  deps: PayoutAccountDeps,
  actor: PolicyActor & { role: string },
  body: OnboardingLinkBody | null | undefined,
  baseUrl: string,
): Promise<{ url: string }> {
  assertPayoutRole(actor);
  const dashboard = dashboardOf(actor, body?.dashboard);
  const stored = await storedOf(deps, actor.id);
  if (stored.accountId === null) throw conflict(SET_UP_PAYOUTS_FIRST);
  const accountId = stored.accountId;
  const back = (value: string) =>
    `${baseUrl}${PAYOUT_DASHBOARD_PATHS[dashboard]}?${PAYOUT_RETURN_PARAM}=${value}`;
  return callAboutAccount(() =>
    deps.accounts.createOnboardingLink({ accountId, returnUrl: back('return'), refreshUrl: back('refresh') }),
  );
}

/**
 * POST /api/stripe/connect/dashboard-link: the provider's dashboard of the caller's account, once
 * they have finished onboarding (Stripe makes no login link before).
 */
export async function createOwnDashboardLink(
  deps: PayoutAccountDeps,
  actor: PolicyActor,
): Promise<{ url: string }> {
  assertPayoutRole(actor);
  const stored = await storedOf(deps, actor.id);
  if (stored.accountId === null) throw conflict(SET_UP_PAYOUTS_FIRST);
  if (!stored.onboardingComplete) throw conflict(COMPLETE_SETUP_FIRST);
  const accountId = stored.accountId;
  return callAboutAccount(() => deps.accounts.createDashboardLink(accountId));
}

/** The Connect webhook's parser (Stripe's adapter); absent with the test provider, which has none. */
export type AccountWebhookParser = (
  rawBody: Buffer,
  signature: string | undefined,
) => PayoutAccountWebhookEvent | Promise<PayoutAccountWebhookEvent>;

/**
 * POST /api/stripe/connect/webhook: `account.updated`, checked by signature. The account is read
 * again from the provider rather than taken from the event, since events may arrive out of order.
 */
export async function handleAccountWebhook(
  deps: PayoutAccountDeps,
  parse: AccountWebhookParser | undefined,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<{ received: true }> {
  if (!parse) throw notFound();
  let event: PayoutAccountWebhookEvent;
  try {
    event = await parse(rawBody, signature);
  } catch (error) {
    if (error instanceof WebhookSignatureError)
      throw badRequest(`Webhook signature check failed: ${error.message}`);
    throw error;
  }
  if (event.type !== 'account_updated') return { received: true };
  const accountId = event.account.accountId;
  const userId = await findUserIdByPayoutAccount(deps.db, accountId);
  if (!userId) {
    deps.log.warn({ accountId }, 'account.updated for an account of no user; ignored');
    return { received: true };
  }
  let account: PayoutAccount;
  try {
    account = await deps.accounts.retrieveAccount(accountId);
  } catch (error) {
    // Stripe sends the event again later when the answer is not a success.
    if (error instanceof PaymentProviderUnavailableError)
      throw new AppError('unavailable', 'The payout provider is not reachable; send the event again later.');
    if (error instanceof UnknownPayoutAccountError) {
      deps.log.warn(
        { accountId, userId },
        'account.updated for an account the provider no longer knows; ignored',
      );
      return { received: true };
    }
    throw error;
  }
  await recordPayoutAccount(deps, userId, account);
  deps.log.info({ userId, accountId, status: account.status }, 'payout account updated by webhook');
  return { received: true };
}
