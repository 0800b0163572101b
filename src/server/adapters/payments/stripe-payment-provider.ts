import Stripe from 'stripe';
import { z } from 'zod';
import type { StripeConfig } from '../../config';
import {
  PaymentProviderUnavailableError,
  WebhookSignatureError,
  type CreatedPayment,
  type CreatePaymentInput,
  type PaymentProvider,
  type PaymentWebhookEvent,
  type ProviderPayment,
  type ProviderPaymentStatus,
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

/** Network failures and Stripe's own 5xx/429 are "try again later"; anything else is a bug or bad data. */
function translateError(error: unknown, what: string): unknown {
  if (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError
  ) {
    return new PaymentProviderUnavailableError(`Stripe is not reachable (${what})`, { cause: error });
  }
  return error;
}

/**
 * Stripe PaymentIntents (docs/product-rules.md, Running modes and adapters): the server creates the
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
    const base = config.apiBase ? new URL(config.apiBase) : undefined;
    this.stripe = new Stripe(config.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
      ...(base
        ? {
            host: base.hostname,
            port: base.port || (base.protocol === 'https:' ? 443 : 80),
            protocol: base.protocol === 'https:' ? 'https' : 'http',
          }
        : {}),
    });
  }

  async createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: input.amount,
          currency: input.currency,
          automatic_payment_methods: { enabled: true },
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
      const intent = await this.stripe.paymentIntents.retrieve(providerPaymentId);
      return {
        providerPaymentId: intent.id,
        status: statusOf(intent.status),
        amount: intent.amount,
        currency: intent.currency,
      };
    } catch (error) {
      throw translateError(error, 'retrieve payment');
    }
  }

  async refund(input: RefundInput): Promise<{ providerRefundId: string }> {
    try {
      const refund = await this.stripe.refunds.create(
        {
          payment_intent: input.providerPaymentId,
          amount: input.amount,
          reason: 'requested_by_customer',
          metadata: { reason: input.reason.slice(0, 500) },
        },
        { idempotencyKey: `refund-${input.idempotencyKey}` },
      );
      return { providerRefundId: refund.id };
    } catch (error) {
      throw translateError(error, 'refund');
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
    if (parsed.data.type === 'payment_intent.succeeded')
      return { type: 'payment_succeeded', providerPaymentId: parsed.data.data.object.id };
    return { type: 'ignored', eventType: parsed.data.type };
  }
}
