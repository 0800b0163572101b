import type { PaymentProviderName } from '../../../domain/checkout';
import type { Cents } from '../../../domain/money';

/**
 * Card payments behind one interface (docs/product-rules.md, Running modes and adapters): the
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
}

export interface CreatePaymentInput {
  /** Our payments.id: metadata at the provider and the idempotency key of the create call. */
  paymentId: string;
  buyerId: string;
  amount: Cents;
  currency: string;
}

export interface CreatedPayment {
  providerPaymentId: string;
  /** Stripe: what Stripe.js confirms the card with; null for the test provider. */
  clientSecret: string | null;
}

export interface RefundInput {
  providerPaymentId: string;
  amount: Cents;
  /** Our refunds.id: the same refund asked twice (a retry after a crash) is made once. */
  idempotencyKey: string;
  reason: string;
}

/** The card fields of the test provider's form, already checked for shape. */
export interface TestCard {
  cardNumber: string;
  expiry: string;
  cvc: string;
  name: string;
}

export type CardOutcome = { outcome: 'succeeded' } | { outcome: 'declined'; message: string };

/** A webhook event the marketplace acts on; anything else is acknowledged and ignored. */
export type PaymentWebhookEvent =
  { type: 'payment_succeeded'; providerPaymentId: string } | { type: 'ignored'; eventType: string };

export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

/** The provider could not be reached or answered with a server error: worth retrying later. */
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
  refund(input: RefundInput): Promise<{ providerRefundId: string }>;
  /**
   * Test provider only: charge the card on the server. Stripe confirms cards in the browser
   * (Stripe.js), so its adapter leaves this out.
   */
  confirmCard?(providerPaymentId: string, card: TestCard): Promise<CardOutcome>;
  /** Stripe only: check a webhook's signature over the raw body and read the event. */
  parseWebhook?(rawBody: Buffer, signature: string | undefined): PaymentWebhookEvent;
}
