import Stripe from 'stripe';
import { createStripeClient, isStripeUnavailable } from './stripe-client';
import { z } from 'zod';
import type { StripeConfig } from '../../config';
import {
  PaymentProviderUnavailableError,
  RefundRefusedError,
  UnknownDisputeError,
  WebhookSignatureError,
  type ChargeFee,
  type CreatedPayment,
  type CreatePaymentInput,
  type PaymentProvider,
  type PaymentWebhookEvent,
  type ProviderBalanceTransaction,
  type DisputeMovement,
  type ProviderDispute,
  type ProviderDisputeStatus,
  type ProviderPayment,
  type ProviderPaymentStatus,
  type ProviderRefund,
  type ProviderRefundStatus,
  type RefundInput,
} from './payment-provider';

/** Stripe's PaymentIntent statuses, as far as the marketplace cares (docs: PaymentIntent lifecycle). */
function statusOf(status: string): ProviderPaymentStatus {
  switch (status) {
    case 'succeeded':
      return 'succeeded';
    case 'processing':
      return 'processing';
    case 'canceled':
      return 'canceled';
    default:
      // requires_payment_method, requires_confirmation, requires_action, requires_capture
      return 'requires_payment';
  }
}

/** The parts of a webhook event the marketplace reads, checked rather than trusted. */
const webhookEventSchema = z.object({
  type: z.string(),
  data: z.object({ object: z.looseObject({ id: z.string() }) }),
});

const intentEventSchema = z.looseObject({
  id: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  latest_charge: z.union([z.string(), z.looseObject({ id: z.string() })]).nullish(),
});

const REFUND_STATUSES = ['pending', 'succeeded', 'failed', 'requires_action', 'canceled'] as const;
const refundEventSchema = z.looseObject({
  id: z.string(),
  status: z.string().nullish(),
  failure_reason: z.string().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
});
/** Stripe's refund events; `charge.refund.updated` carries the refund itself, as `refund.updated` does. */
const REFUND_EVENTS = new Set(['refund.created', 'refund.updated', 'refund.failed', 'charge.refund.updated']);

/** The events of a dispute's life (docs/decisions/0018-money-against-stripe.md, Disputes). */
const DISPUTE_EVENTS = new Set([
  'charge.dispute.created',
  'charge.dispute.updated',
  'charge.dispute.funds_withdrawn',
  'charge.dispute.funds_reinstated',
  'charge.dispute.closed',
]);

const DISPUTE_STATUSES = [
  'warning_needs_response',
  'warning_under_review',
  'warning_closed',
  'needs_response',
  'under_review',
  'won',
  'lost',
  'prevented',
] as const;

const balanceTransactionSchema = z.looseObject({
  id: z.string(),
  amount: z.number().int(),
  fee: z.number().int().nullish(),
});

/** The parts of Stripe's Dispute object the marketplace reads (API reference, The Dispute object). */
const disputeSchema = z.looseObject({
  id: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  charge: z.union([z.string(), z.looseObject({ id: z.string() })]).nullish(),
  payment_intent: z.union([z.string(), z.looseObject({ id: z.string() })]).nullish(),
  reason: z.string().nullish(),
  status: z.string(),
  evidence_details: z.looseObject({ due_by: z.number().int().nullish() }).nullish(),
  balance_transactions: z.array(z.union([z.string(), balanceTransactionSchema])).nullish(),
});

/**
 * A status Stripe may add later is taken as still open: it holds the payouts rather than release
 * money on a state nobody has looked at.
 */
function disputeStatusOf(status: string): ProviderDisputeStatus {
  return DISPUTE_STATUSES.find((known) => known === status) ?? 'under_review';
}

/**
 * The dispute's balance transactions: Stripe lists zero, one or two — the withdrawal (a negative
 * amount, the dispute fee as its fee) and, after a won dispute, the reinstatement (a positive
 * amount; a fee given back shows as a negative fee). A fee taken on its own (the dispute countered
 * fee, taken when evidence is submitted) is an adjustment of amount 0 with the fee: one of `otherFees`.
 */
function disputeMovements(transactions: z.infer<typeof disputeSchema>['balance_transactions']) {
  let withdrawal: DisputeMovement | null = null;
  let reinstatement: DisputeMovement | null = null;
  const otherFees: DisputeMovement[] = [];
  for (const txn of transactions ?? []) {
    if (typeof txn === 'string') continue;
    const fee = txn.fee ?? 0;
    if (txn.amount < 0 && !withdrawal)
      withdrawal = { balanceTransactionId: txn.id, amount: -txn.amount, fee: Math.max(fee, 0) };
    else if (txn.amount > 0 && !reinstatement)
      reinstatement = { balanceTransactionId: txn.id, amount: txn.amount, fee: Math.max(-fee, 0) };
    else if (txn.amount === 0 && fee > 0) otherFees.push({ balanceTransactionId: txn.id, amount: 0, fee });
  }
  return { withdrawal, reinstatement, otherFees };
}

function providerDispute(raw: unknown): ProviderDispute {
  const dispute = disputeSchema.parse(raw);
  const dueBy = dispute.evidence_details?.due_by;
  return {
    providerDisputeId: dispute.id,
    chargeId: chargeIdOf(dispute.charge),
    providerPaymentId: chargeIdOf(dispute.payment_intent),
    amount: dispute.amount,
    currency: dispute.currency,
    reason: dispute.reason ?? 'general',
    status: disputeStatusOf(dispute.status),
    evidenceDueBy: dueBy ? new Date(dueBy * 1000) : null,
    ...disputeMovements(dispute.balance_transactions),
  };
}

function refundStatusOf(status: string | null | undefined): ProviderRefundStatus {
  return REFUND_STATUSES.find((known) => known === status) ?? 'pending';
}

interface RefundLike {
  id: string;
  status?: string | null;
  failure_reason?: string | null;
  metadata?: Record<string, string> | null;
}

function providerRefund(refund: RefundLike): ProviderRefund {
  return {
    providerRefundId: refund.id,
    status: refundStatusOf(refund.status),
    failureReason: refund.failure_reason ?? null,
    refundId: refund.metadata?.refundId ?? null,
  };
}

function chargeIdOf(charge: string | { id: string } | null | undefined): string | null {
  if (!charge) return null;
  return typeof charge === 'string' ? charge : charge.id;
}

function providerPayment(intent: Stripe.PaymentIntent): ProviderPayment {
  return {
    providerPaymentId: intent.id,
    status: statusOf(intent.status),
    amount: intent.amount,
    currency: intent.currency,
    chargeId: chargeIdOf(intent.latest_charge),
    clientSecret: intent.client_secret,
  };
}

/** Network failures and Stripe's own 5xx/429 are "try again later"; anything else is a bug or bad data. */
function translateError(error: unknown, what: string): unknown {
  if (isStripeUnavailable(error)) {
    return new PaymentProviderUnavailableError(`Stripe is not reachable (${what})`, { cause: error });
  }
  return error;
}

/**
 * Stripe PaymentIntents (docs/rules/running.md, Running modes and adapters): the server creates the
 * intent for the checkout's total, the browser confirms the card with Stripe.js using the client
 * secret, and the server learns of the success from the webhook or by retrieving the intent.
 * Refunds go through the Refunds API. Every create call carries an idempotency key, so a retry
 * never charges or refunds twice.
 */
export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  readonly publishableKey: string;
  private readonly stripe: Stripe;
  private readonly webhookSecret: string;

  constructor(config: StripeConfig) {
    this.publishableKey = config.publishableKey;
    this.webhookSecret = config.webhookSecret;
    this.stripe = createStripeClient(config);
  }

  async createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: input.amount,
          currency: input.currency,
          automatic_payment_methods: { enabled: true },
          transfer_group: input.transferGroup,
          metadata: { paymentId: input.paymentId, buyerId: input.buyerId },
        },
        { idempotencyKey: `payment-${input.paymentId}` },
      );
      if (!intent.client_secret) throw new Error('Stripe answered a PaymentIntent without a client secret');
      return { providerPaymentId: intent.id, clientSecret: intent.client_secret };
    } catch (error) {
      throw translateError(error, 'create payment');
    }
  }

  async retrievePayment(providerPaymentId: string): Promise<ProviderPayment> {
    try {
      return providerPayment(await this.stripe.paymentIntents.retrieve(providerPaymentId));
    } catch (error) {
      throw translateError(error, 'retrieve payment');
    }
  }

  async cancelPayment(providerPaymentId: string): Promise<ProviderPayment> {
    try {
      return providerPayment(
        await this.stripe.paymentIntents.cancel(providerPaymentId, { cancellation_reason: 'abandoned' }),
      );
    } catch (error) {
      // Paid (or cancelled) meanwhile: Stripe refuses with payment_intent_unexpected_state; say how it
      // stands.
      if (
        error instanceof Stripe.errors.StripeInvalidRequestError &&
        error.code === 'payment_intent_unexpected_state'
      )
        return this.retrievePayment(providerPaymentId);
      throw translateError(error, 'cancel payment');
    }
  }

  async refund(input: RefundInput): Promise<ProviderRefund> {
    try {
      const refund = await this.stripe.refunds.create(
        {
          payment_intent: input.providerPaymentId,
          amount: input.amount,
          reason: 'requested_by_customer',
          metadata: { refundId: input.refundId, reason: input.reason.slice(0, 500) },
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return providerRefund(refund);
    } catch (error) {
      // A refusal is final: Stripe saves it under the key and answers it to every retry.
      if (
        error instanceof Stripe.errors.StripeInvalidRequestError ||
        error instanceof Stripe.errors.StripeIdempotencyError ||
        error instanceof Stripe.errors.StripePermissionError
      )
        throw new RefundRefusedError(
          `Stripe refused the refund: ${error.message}`,
          error.code ?? error.type,
          {
            cause: error,
          },
        );
      throw translateError(error, 'refund');
    }
  }

  async findRefund(providerPaymentId: string, refundId: string): Promise<ProviderRefund | undefined> {
    try {
      // A payment has a handful of refunds at most (one per order); auto-pagination reads them all.
      for await (const refund of this.stripe.refunds.list({
        payment_intent: providerPaymentId,
        limit: 100,
      })) {
        if (refund.metadata?.refundId === refundId) return providerRefund(refund);
      }
      return undefined;
    } catch (error) {
      throw translateError(error, 'list refunds');
    }
  }

  async listRefunds(providerPaymentId: string): Promise<ProviderRefund[]> {
    try {
      const found: ProviderRefund[] = [];
      for await (const refund of this.stripe.refunds.list({ payment_intent: providerPaymentId, limit: 100 }))
        found.push({ ...providerRefund(refund), amount: refund.amount });
      return found;
    } catch (error) {
      throw translateError(error, 'list refunds');
    }
  }

  async retrieveRefund(providerRefundId: string): Promise<ProviderRefund> {
    try {
      return providerRefund(await this.stripe.refunds.retrieve(providerRefundId));
    } catch (error) {
      throw translateError(error, 'retrieve refund');
    }
  }

  /**
   * The fee Stripe kept on a charge: `fee` of its balance transaction, expanded on the charge
   * (docs.stripe.com/api/charges/object: `balance_transaction`, nullable; docs.stripe.com/api/
   * balance_transactions/object: `fee`). Null while Stripe has not made the balance transaction yet.
   */
  async retrieveChargeFee(chargeId: string): Promise<ChargeFee | null> {
    try {
      const charge = await this.stripe.charges.retrieve(chargeId, { expand: ['balance_transaction'] });
      const transaction = charge.balance_transaction;
      if (!transaction || typeof transaction === 'string') return null;
      return { fee: transaction.fee, currency: transaction.currency, balanceTransactionId: transaction.id };
    } catch (error) {
      throw translateError(error, 'retrieve charge');
    }
  }

  /**
   * `GET /v1/balance_transactions` with `created[gte]` and `created[lt]` (seconds), 100 a page,
   * followed with `starting_after` by the library's auto-pagination.
   */
  async *listBalanceTransactions(period: {
    from: Date;
    to: Date;
  }): AsyncIterable<ProviderBalanceTransaction> {
    try {
      for await (const transaction of this.stripe.balanceTransactions.list({
        created: {
          gte: Math.floor(period.from.getTime() / 1000),
          lt: Math.ceil(period.to.getTime() / 1000),
        },
        limit: 100,
      })) {
        const source = transaction.source;
        yield {
          id: transaction.id,
          type: transaction.type,
          amount: transaction.amount,
          fee: transaction.fee,
          currency: transaction.currency,
          source: source === null ? null : typeof source === 'string' ? source : source.id,
          created: new Date(transaction.created * 1000),
        };
      }
    } catch (error) {
      throw translateError(error, 'list balance transactions');
    }
  }

  async retrieveDispute(providerDisputeId: string): Promise<ProviderDispute> {
    try {
      return providerDispute(await this.stripe.disputes.retrieve(providerDisputeId));
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing')
        throw new UnknownDisputeError(providerDisputeId);
      throw translateError(error, 'retrieve dispute');
    }
  }

  /** Checks the Stripe-Signature header over the exact bytes received (stripe.webhooks.constructEvent). */
  parseWebhook(rawBody: Buffer, signature: string | undefined): PaymentWebhookEvent {
    if (!signature) throw new WebhookSignatureError('Missing Stripe-Signature header');
    let event: unknown;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret);
    } catch (error) {
      throw new WebhookSignatureError(error instanceof Error ? error.message : 'Invalid signature');
    }
    const parsed = webhookEventSchema.safeParse(event);
    if (!parsed.success) return { type: 'ignored', eventType: 'unreadable' };
    const { type } = parsed.data;
    if (type === 'payment_intent.succeeded') {
      const intent = intentEventSchema.safeParse(parsed.data.data.object);
      if (!intent.success) return { type: 'ignored', eventType: `${type} (unreadable)` };
      return {
        type: 'payment_succeeded',
        providerPaymentId: intent.data.id,
        amount: intent.data.amount,
        currency: intent.data.currency,
        chargeId: chargeIdOf(intent.data.latest_charge),
      };
    }
    if (REFUND_EVENTS.has(type)) {
      const refund = refundEventSchema.safeParse(parsed.data.data.object);
      if (!refund.success) return { type: 'ignored', eventType: `${type} (unreadable)` };
      return { type: 'refund_updated', refund: providerRefund(refund.data) };
    }
    // Only the id is taken: the dispute is read again, as events may arrive out of order.
    if (DISPUTE_EVENTS.has(type))
      return { type: 'dispute_changed', providerDisputeId: parsed.data.data.object.id, eventType: type };
    return { type: 'ignored', eventType: type };
  }
}
