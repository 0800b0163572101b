import type { PaymentProviderName } from '../../../domain/checkout';
import type { Cents } from '../../../domain/money';

/**
 * Card payments behind one interface (docs/rules/running.md, Running modes and adapters): the
 * built-in test provider with its ledger in the database, or Stripe PaymentIntents. Routes and
 * services never know which one runs.
 */

/** What the provider says about a payment. `requires_payment` covers every "not charged yet" state. */
export type ProviderPaymentStatus = 'requires_payment' | 'processing' | 'succeeded' | 'canceled';

export interface ProviderPayment {
  providerPaymentId: string;
  status: ProviderPaymentStatus;
  amount: Cents;
  currency: string;
  /** The charge a transfer names as its source_transaction; known once succeeded (Stripe: latest_charge). */
  chargeId: string | null;
  /** Stripe: what Stripe.js confirms the card with (a reloaded payment screen reuses it); null for the test provider. */
  clientSecret: string | null;
}

export interface CreatePaymentInput {
  /** Our payments.id: metadata at the provider and the idempotency key of the create call. */
  paymentId: string;
  buyerId: string;
  amount: Cents;
  currency: string;
  /** `payment_<paymentId>`: the transfers of the payment's orders carry the same group. */
  transferGroup: string;
}

export interface CreatedPayment {
  providerPaymentId: string;
  /** Stripe: what Stripe.js confirms the card with; null for the test provider. */
  clientSecret: string | null;
}

export interface RefundInput {
  providerPaymentId: string;
  amount: Cents;
  /** Our refunds.id, kept in the refund's metadata so `findRefund` can find it after the key window. */
  refundId: string;
  /** The same refund asked twice within the provider's key window (24 h at Stripe) is made once. */
  idempotencyKey: string;
  reason: string;
}

/** Where a refund stands at the provider (Stripe's Refund statuses). */
export type ProviderRefundStatus = 'pending' | 'succeeded' | 'failed' | 'requires_action' | 'canceled';

export interface ProviderRefund {
  providerRefundId: string;
  status: ProviderRefundStatus;
  /** Why it failed (Stripe's failure_reason, e.g. `expired_or_canceled_card`); null otherwise. */
  failureReason: string | null;
  /** Our refunds.id from the metadata; null for a refund made elsewhere (the Dashboard). */
  refundId: string | null;
  /** What it gives back, in cents (known when listed from the provider). */
  amount?: Cents;
}

/** The card fields of the test provider's form, already checked for shape. */
export interface TestCard {
  cardNumber: string;
  expiry: string;
  cvc: string;
  name: string;
}

/** A charged card names its charge, as `retrievePayment` would (one call less when paying). */
export type CardOutcome =
  { outcome: 'succeeded'; chargeId: string } | { outcome: 'declined'; message: string };

/** The provider's processing fee of a charge (Stripe: `fee` of the charge's balance transaction). */
export interface ChargeFee {
  fee: Cents;
  currency: string;
  /** The provider's record of the charge in its balance (Stripe: `txn_…`); null for the test provider. */
  balanceTransactionId: string | null;
}

/**
 * One movement of the platform's balance at the provider (Stripe's balance transaction, the fields
 * the marketplace reads): `amount` is signed as Stripe signs it (money in positive, out negative),
 * `fee` is what the provider kept on it, `source` the object that moved it (`ch_…`, `re_…`,
 * `tr_…`, `trr_…`, `dp_…`).
 */
export interface ProviderBalanceTransaction {
  id: string;
  /** Stripe's `type`: charge, payment, refund, payment_refund, refund_failure, transfer, transfer_refund, adjustment, payout, stripe_fee… */
  type: string;
  amount: Cents;
  fee: Cents;
  currency: string;
  source: string | null;
  created: Date;
}

/** Stripe's dispute statuses (docs/decisions/0018-money-against-stripe.md, Disputes). */
export type ProviderDisputeStatus =
  | 'warning_needs_response'
  | 'warning_under_review'
  | 'warning_closed'
  | 'needs_response'
  | 'under_review'
  | 'won'
  | 'lost'
  | 'prevented';

/** Money a dispute moved at the provider: one balance transaction of the dispute. */
export interface DisputeMovement {
  /** The balance transaction (Stripe: txn_…). */
  balanceTransactionId: string;
  /** What left (withdrawal) or came back (reinstatement), without the fee; positive cents. */
  amount: Cents;
  /** The dispute fee taken (withdrawal) or given back (reinstatement); positive cents, 0 when none. */
  fee: Cents;
}

/** A chargeback as the provider reports it now (read again on every event: Stripe does not promise order). */
export interface ProviderDispute {
  providerDisputeId: string;
  /** The disputed charge (Stripe: ch_…), matched to payments.provider_charge_id. */
  chargeId: string | null;
  /** The PaymentIntent of the charge, when the provider names it. */
  providerPaymentId: string | null;
  amount: Cents;
  currency: string;
  reason: string;
  status: ProviderDisputeStatus;
  /** Stripe: evidence_details.due_by. */
  evidenceDueBy: Date | null;
  /** The funds withdrawn with the dispute fee; null before charge.dispute.funds_withdrawn. */
  withdrawal: DisputeMovement | null;
  /** The funds given back after a won dispute (and the fee, when the provider returns it). */
  reinstatement: DisputeMovement | null;
  /**
   * Fees taken on their own, no funds moved (Stripe: the dispute countered fee, an `adjustment` of
   * amount 0 whose fee is taken when evidence is submitted); `amount` is 0.
   */
  otherFees: DisputeMovement[];
}

/** The provider does not know this dispute (Stripe: 404 resource_missing). */
export class UnknownDisputeError extends Error {
  constructor(providerDisputeId: string) {
    super(`The provider does not know dispute ${providerDisputeId}`);
    this.name = 'UnknownDisputeError';
  }
}

/** A webhook event the marketplace acts on; anything else is acknowledged and ignored. */
export type PaymentWebhookEvent =
  | {
      type: 'payment_succeeded';
      providerPaymentId: string;
      amount: Cents;
      currency: string;
      chargeId: string | null;
    }
  | { type: 'refund_updated'; refund: ProviderRefund }
  /** charge.dispute.*: only the id is used; the dispute is read again (`retrieveDispute`). */
  | { type: 'dispute_changed'; providerDisputeId: string; eventType: string }
  | { type: 'ignored'; eventType: string };

export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

/** The provider could not be reached or answered with a server error: worth retrying later. */
/**
 * The provider refused a refund for good (Stripe: a 4xx such as `charge_disputed` or an
 * `idempotency_error`): Stripe saves that answer under the key, so asking again never helps. The
 * refund is failed and undone (docs/decisions/0022-money-in-combinations.md, A refund that fails).
 */
export class RefundRefusedError extends Error {
  /** The provider's error code (`charge_disputed`, `idempotency_error`, …) or null. */
  readonly code: string | null;
  constructor(message: string, code: string | null, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RefundRefusedError';
    this.code = code;
  }
}

export class PaymentProviderUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PaymentProviderUnavailableError';
  }
}

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** Stripe: the publishable key the browser loads Stripe.js with; null for the test provider. */
  readonly publishableKey: string | null;
  createPayment(input: CreatePaymentInput): Promise<CreatedPayment>;
  retrievePayment(providerPaymentId: string): Promise<ProviderPayment>;
  /**
   * Stops a payment that was never completed (an abandoned checkout). Answers how it stands after:
   * `canceled`, or `succeeded`/`processing` when it was paid meanwhile and can no longer be cancelled.
   */
  cancelPayment(providerPaymentId: string): Promise<ProviderPayment>;
  refund(input: RefundInput): Promise<ProviderRefund>;
  /** A refund made earlier, found by our refunds.id among the payment's refunds at the provider. */
  findRefund(providerPaymentId: string, refundId: string): Promise<ProviderRefund | undefined>;
  /** How a refund the provider already knows stands now (a pending one is asked about again). */
  retrieveRefund(providerRefundId: string): Promise<ProviderRefund>;
  /**
   * The processing fee the provider kept on a charge, or null while the provider does not know it
   * yet (Stripe: the charge's balance_transaction is null at first for some payment methods). The
   * built-in test provider charges no fee: 0.
   */
  retrieveChargeFee(chargeId: string): Promise<ChargeFee | null>;
  /**
   * True when the provider keeps no fee on any charge (the built-in test provider): the payment's
   * claim then records its fee as 0 at once, which writes no ledger entry, so a paid checkout makes
   * no second write for it (docs/decisions/0025-checkout-statements.md). Stripe leaves this out:
   * its fee is read from the charge's balance transaction.
   */
  readonly chargesNoFee?: boolean;
  /**
   * The platform's balance transactions created in [from, to), in the provider's order (Stripe:
   * newest first), read page after page. The built-in test provider answers its own records in
   * the same terms. A provider without it has nothing for reconcile to compare.
   */
  listBalanceTransactions?(period: { from: Date; to: Date }): AsyncIterable<ProviderBalanceTransaction>;
  /**
   * Test provider only: charge the card on the server. Stripe confirms cards in the browser
   * (Stripe.js), so its adapter leaves this out.
   */
  confirmCard?(providerPaymentId: string, card: TestCard): Promise<CardOutcome>;
  /**
   * Stripe only: a dispute as it stands now (GET /v1/disputes/:id). The test provider has no
   * disputes (docs/decisions/0018-money-against-stripe.md, Disputes).
   */
  retrieveDispute?(providerDisputeId: string): Promise<ProviderDispute>;
  /**
   * The refunds of a payment at the provider, ours and those it made on its own (Stripe refunds the
   * cardholder of a prevented dispute: docs/decisions/0022-money-in-combinations.md).
   */
  listRefunds?(providerPaymentId: string): Promise<ProviderRefund[]>;
  /** Stripe only: check a webhook's signature over the raw body and read the event. */
  parseWebhook?(rawBody: Buffer, signature: string | undefined): PaymentWebhookEvent;
}
