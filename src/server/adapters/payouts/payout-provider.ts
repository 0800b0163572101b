import type { PaymentProviderName } from '../../../domain/checkout';
import type { Cents } from '../../../domain/money';

/**
 * Payouts to sellers and drivers behind one interface (docs/rules/running.md, Running modes and
 * adapters), as for payments: Stripe Connect Express accounts with separate charges and transfers,
 * or the built-in test provider whose onboarding is a page of this server. Two halves, written and
 * tested apart: the payout account of a user, and the money moved to it.
 */

/** The spec's payout account status (seller and driver dashboards, Payout onboarding). */
export type PayoutAccountStatus = 'active' | 'pending' | 'restricted';

export interface PayoutAccount {
  accountId: string;
  /** The user finished the provider's onboarding form (Stripe: details_submitted). */
  onboardingComplete: boolean;
  status: PayoutAccountStatus;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
}

export interface PayoutAccounts {
  /** Creates the connected account of a user; the user id is the idempotency key. */
  createAccount(input: { userId: string; email: string }): Promise<{ accountId: string }>;
  retrieveAccount(accountId: string): Promise<PayoutAccount>;
  /** Where the user completes onboarding; `returnUrl` brings them back, `refreshUrl` asks for a new link. */
  createOnboardingLink(input: {
    accountId: string;
    returnUrl: string;
    refreshUrl: string;
  }): Promise<{ url: string }>;
  /** The provider's dashboard of the account (Stripe: a login link of an Express account). */
  createDashboardLink(accountId: string): Promise<{ url: string }>;
}

export interface TransferInput {
  amount: Cents;
  currency: string;
  destinationAccountId: string;
  /** The buyer's charge the money comes from (Stripe: source_transaction); null for the test provider. */
  sourceChargeId: string | null;
  /** Ties the transfers of one payment together (Stripe: the PaymentIntent's transfer_group). */
  transferGroup: string;
  /** One per order and party, so a retry or a second report never pays twice. */
  idempotencyKey: string;
  metadata: Record<string, string>;
}

export interface ReversalInput {
  providerTransferId: string;
  amount: Cents;
  idempotencyKey: string;
  metadata: Record<string, string>;
  /**
   * The first attempt is older than the provider's key window (Stripe: 24 hours): look for a reversal
   * carrying this key in its metadata before making one (docs/decisions/0018-money-against-stripe.md).
   */
  lookFirst?: boolean;
}

export interface PayoutTransfers {
  transfer(input: TransferInput): Promise<{ providerTransferId: string }>;
  reverseTransfer(input: ReversalInput): Promise<{ providerReversalId: string }>;
  /**
   * The transfer already made with this idempotency key's metadata, if any: how a retry after the
   * provider forgot the key (Stripe keeps keys 24 hours) finds out it must not pay again.
   */
  findTransfer(input: {
    transferGroup: string;
    idempotencyKey: string;
  }): Promise<{ providerTransferId: string } | null>;
}

export interface PayoutProvider extends PayoutAccounts, PayoutTransfers {
  readonly name: PaymentProviderName;
}
