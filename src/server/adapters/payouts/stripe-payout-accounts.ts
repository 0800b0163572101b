import Stripe from 'stripe';
import { createStripeClient, isStripeUnavailable } from '../payments/stripe-client';
import { z } from 'zod';
import type { StripeConfig } from '../../config';
import { PaymentProviderUnavailableError, WebhookSignatureError } from '../payments/payment-provider';
import { UnknownPayoutAccountError } from './payout-account-errors';
import type { PayoutAccount, PayoutAccounts, PayoutAccountStatus } from './payout-provider';

/** A Connect webhook event the marketplace acts on; anything else is acknowledged and ignored. */
export type PayoutAccountWebhookEvent =
  { type: 'account_updated'; account: PayoutAccount } | { type: 'ignored'; eventType: string };

/** The parts of a connected account the marketplace reads (Stripe: the Account object). */
const accountSchema = z.object({
  id: z.string(),
  details_submitted: z.boolean().nullish(),
  charges_enabled: z.boolean().nullish(),
  payouts_enabled: z.boolean().nullish(),
  capabilities: z.object({ transfers: z.string().nullish() }).nullish(),
  requirements: z
    .object({
      currently_due: z.array(z.string()).nullish(),
      past_due: z.array(z.string()).nullish(),
      disabled_reason: z.string().nullish(),
    })
    .nullish(),
});

type StripeAccountFields = z.infer<typeof accountSchema>;

const accountEventSchema = z.object({
  type: z.string(),
  data: z.object({ object: z.looseObject({ id: z.string() }) }),
});

/**
 * The spec's status of a connected account (docs/rules/money.md, Payout accounts):
 * - pending while the onboarding form is unfinished (a new account's form fields count as past due
 *   at Stripe, which is no restriction), or while Stripe verifies what was submitted;
 * - restricted when Stripe disabled the account for another reason, or requirements are past due;
 * - active when payouts are enabled and the transfers capability is active: Stripe often lists
 *   `currently_due` items on a working account (due by a future deadline), which restrict nothing
 *   until they are past due (docs/decisions/0018-money-against-stripe.md, Failed payouts);
 * - pending otherwise.
 */
export function payoutStatusOf(account: StripeAccountFields): PayoutAccountStatus {
  const requirements = account.requirements;
  const disabledReason = requirements?.disabled_reason ?? null;
  if (account.details_submitted !== true) return 'pending';
  if (disabledReason === 'requirements.pending_verification') return 'pending';
  if (disabledReason !== null || (requirements?.past_due?.length ?? 0) > 0) return 'restricted';
  if (account.payouts_enabled === true && account.capabilities?.transfers === 'active') return 'active';
  return 'pending';
}

function toPayoutAccount(account: StripeAccountFields): PayoutAccount {
  return {
    accountId: account.id,
    onboardingComplete: account.details_submitted === true,
    status: payoutStatusOf(account),
    chargesEnabled: account.charges_enabled === true,
    payoutsEnabled: account.payouts_enabled === true,
  };
}

/**
 * Network failures and Stripe's own 5xx/429 are "try again later"; an account Stripe does not know
 * (or this key may not reach) is unknown; anything else is a bug or bad data.
 */
function translateError(error: unknown, what: string, accountId?: string): unknown {
  if (
    accountId !== undefined &&
    (error instanceof Stripe.errors.StripePermissionError ||
      (error instanceof Stripe.errors.StripeInvalidRequestError &&
        (error.code === 'resource_missing' || error.code === 'account_invalid')))
  ) {
    return new UnknownPayoutAccountError(accountId, { cause: error });
  }
  if (isStripeUnavailable(error)) {
    return new PaymentProviderUnavailableError(`Stripe is not reachable (${what})`, { cause: error });
  }
  return error;
}

/**
 * Stripe Connect Express accounts (docs/rules/money.md, Payout accounts): the platform creates the
 * account, Stripe's hosted onboarding collects the person's details (an account link), and Stripe's
 * Express dashboard shows their payouts (a login link). Changes arrive as `account.updated` events on
 * the Connect webhook, checked by signature.
 */
export class StripePayoutAccounts implements PayoutAccounts {
  private readonly stripe: Stripe;
  private readonly webhookSecret: string;

  constructor(config: StripeConfig) {
    this.webhookSecret = config.connectWebhookSecret ?? config.webhookSecret;
    this.stripe = createStripeClient(config);
  }

  async createAccount(input: { userId: string; email: string }): Promise<{ accountId: string }> {
    try {
      const account = await this.stripe.accounts.create(
        {
          type: 'express',
          email: input.email,
          capabilities: { transfers: { requested: true } },
          metadata: { userId: input.userId },
        },
        // One account per user, even when two requests race or a retry follows a lost answer.
        { idempotencyKey: `payout-account-${input.userId}` },
      );
      return { accountId: account.id };
    } catch (error) {
      throw translateError(error, 'create payout account');
    }
  }

  async retrieveAccount(accountId: string): Promise<PayoutAccount> {
    try {
      const account = await this.stripe.accounts.retrieve(accountId);
      return toPayoutAccount(accountSchema.parse(account));
    } catch (error) {
      throw translateError(error, 'retrieve payout account', accountId);
    }
  }

  async createOnboardingLink(input: {
    accountId: string;
    returnUrl: string;
    refreshUrl: string;
  }): Promise<{ url: string }> {
    try {
      const link = await this.stripe.accountLinks.create({
        account: input.accountId,
        type: 'account_onboarding',
        return_url: input.returnUrl,
        refresh_url: input.refreshUrl,
      });
      return { url: link.url };
    } catch (error) {
      throw translateError(error, 'create onboarding link', input.accountId);
    }
  }

  async createDashboardLink(accountId: string): Promise<{ url: string }> {
    try {
      const link = await this.stripe.accounts.createLoginLink(accountId);
      return { url: link.url };
    } catch (error) {
      throw translateError(error, 'create dashboard link', accountId);
    }
  }

  /**
   * Checks the Stripe-Signature header of a Connect webhook over the exact bytes received
   * (stripe.webhooks.constructEvent) and reads an `account.updated` event.
   */
  parseAccountWebhook(rawBody: Buffer, signature: string | undefined): PayoutAccountWebhookEvent {
    if (!signature) throw new WebhookSignatureError('Missing Stripe-Signature header');
    let event: unknown;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret);
    } catch (error) {
      throw new WebhookSignatureError(error instanceof Error ? error.message : 'Invalid signature');
    }
    const parsed = accountEventSchema.safeParse(event);
    if (!parsed.success) return { type: 'ignored', eventType: 'unreadable' };
    if (parsed.data.type !== 'account.updated') return { type: 'ignored', eventType: parsed.data.type };
    const account = accountSchema.safeParse(parsed.data.data.object);
    if (!account.success) return { type: 'ignored', eventType: 'unreadable' };
    return { type: 'account_updated', account: toPayoutAccount(account.data) };
  }
}
