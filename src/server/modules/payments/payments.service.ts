import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import {
  PaymentProviderUnavailableError,
  WebhookSignatureError,
  type PaymentProvider,
  type PaymentWebhookEvent,
} from '../../adapters/payments/payment-provider';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors';
import type { Actor } from '../../platform/sessions';
import { isItemProblem, priceCheckout, pricedCheckoutSchema } from '../checkout/checkout.service';
import { ordersOfPayment, placeOrders, takeStockFor } from '../orders/orders.service';
import {
  CARD_CVC_MESSAGE,
  CARD_EXPIRED_MESSAGE,
  CARD_EXPIRY_MESSAGE,
  CARD_NAME_MESSAGE,
  CARD_NUMBER_MESSAGE,
  isExpired,
  parseExpiry,
  type CheckoutBody,
  type PaymentConfirmBody,
  type PaymentIntent,
  type PaymentResult,
} from '../../../domain/checkout';
import { formatCents, parseCents } from '../../../domain/money';
import {
  claimPaymentForOrders,
  claimPaymentForRefund,
  findPaymentById,
  findPaymentByProviderId,
  insertPayment,
  insertRefund,
  listRefundsOfPayment,
  listUnprocessedPayments,
  type PaymentRow,
} from './payments.queries';
import { executeRefund, retryPendingRefunds } from './refunds.service';

export interface PaymentDeps {
  db: Db;
  payments: PaymentProvider;
  now: () => Date;
  timeZone: string;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

export const PAYMENT_NOT_FOUND = 'Payment not found';
/** Stripe's smallest USD charge; the test provider keeps the same rule so both behave alike. */
export const MINIMUM_CHARGE_CENTS = 50;
export const PROVIDER_UNAVAILABLE =
  'The payment service is not reachable right now. Please try again in a moment.';
const RECOVERY_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/** Thrown inside the order transaction to roll it back when a unit is gone. */
class OutOfStockError extends Error {
  constructor(readonly productName: string) {
    super(`Out of stock: ${productName}`);
    this.name = 'OutOfStockError';
  }
}

async function withProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof PaymentProviderUnavailableError)
      throw new AppError('unavailable', PROVIDER_UNAVAILABLE);
    throw error;
  }
}

/**
 * POST /api/payments: prices the checkout again from the database, refuses it while anything is
 * wrong (400 for a missing or wrong choice with the spec's message, 409 for the items), creates the
 * payment for the grand total with the active provider and keeps the priced checkout with it.
 */
export async function createPayment(
  deps: PaymentDeps,
  actor: Actor,
  body: CheckoutBody,
): Promise<PaymentIntent> {
  const { quote, priced } = await priceCheckout(deps, actor, body);
  const choices = quote.problems.filter((found) => !isItemProblem(found));
  if (choices.length > 0) {
    const fields = Object.fromEntries(choices.map((found) => [found.field, found.message]));
    throw badRequest(choices[0]?.message ?? 'Missing information', fields);
  }
  const items = quote.problems.filter(isItemProblem);
  if (items.length > 0) throw conflict(items.map((found) => found.message).join('; '));
  if (priced.total < MINIMUM_CHARGE_CENTS)
    throw badRequest(`The total must be at least ${formatCents(MINIMUM_CHARGE_CENTS)} to pay by card`);

  const paymentId = crypto.randomUUID();
  const created = await withProvider(() =>
    deps.payments.createPayment({ paymentId, buyerId: actor.id, amount: priced.total, currency: 'usd' }),
  );
  await insertPayment(deps.db, {
    id: paymentId,
    buyerId: actor.id,
    provider: deps.payments.name,
    providerPaymentId: created.providerPaymentId,
    amount: formatCents(priced.total),
    currency: 'usd',
    status: 'requires_payment',
    checkout: priced,
    createdAt: deps.now(),
    updatedAt: deps.now(),
  });
  deps.log.info({ paymentId, provider: deps.payments.name, amount: priced.total }, 'payment created');
  return {
    paymentId,
    provider: deps.payments.name,
    clientSecret: created.clientSecret,
    publishableKey: deps.payments.publishableKey,
    amount: formatCents(priced.total),
    currency: 'usd',
    quote,
  };
}

type Processing = { kind: 'placed' } | { kind: 'already' } | { kind: 'out_of_stock'; message: string };

/**
 * Turns a charged payment into its orders, exactly once however often success is reported
 * (DECISIONS §5). One transaction claims the payment (a conditional update only one caller wins),
 * takes the stock atomically and creates the orders. A unit that is gone rolls all of it back; the
 * payment is then claimed the other way, refunded in full through the provider, and makes no order.
 */
export async function processPaidPayment(deps: PaymentDeps, paymentId: string): Promise<Processing> {
  const now = deps.now();
  try {
    return await deps.db.transaction(async (tx): Promise<Processing> => {
      const claimed = await claimPaymentForOrders(tx, paymentId, now);
      if (!claimed) return { kind: 'already' };
      const checkout = pricedCheckoutSchema.parse(claimed.checkout);
      const soldOut = await takeStockFor(
        tx,
        checkout.orders.flatMap((order) => order.items),
      );
      if (soldOut !== null) throw new OutOfStockError(soldOut);
      const orders = await placeOrders(tx, {
        paymentId: claimed.id,
        providerPaymentId: claimed.providerPaymentId,
        checkout,
        now,
      });
      deps.log.info({ paymentId, orders: orders.map((o) => o.orderNumber) }, 'orders placed');
      return { kind: 'placed' };
    });
  } catch (error) {
    if (!(error instanceof OutOfStockError)) throw error;
    const refund = await deps.db.transaction(async (tx) => {
      const claimed = await claimPaymentForRefund(tx, paymentId, now);
      if (!claimed) return undefined;
      return insertRefund(tx, {
        paymentId,
        orderId: null,
        amount: claimed.amount,
        reason: error.message,
        createdAt: now,
      });
    });
    if (!refund) return { kind: 'already' };
    deps.log.warn({ paymentId, reason: error.message }, 'item sold out after payment; refunding in full');
    await executeRefund(deps, refund);
    return { kind: 'out_of_stock', message: error.message };
  }
}

/** What a processed payment came to: its orders, or the refund that replaced them. */
async function resultOf(deps: PaymentDeps, payment: PaymentRow): Promise<PaymentResult> {
  const checkout = pricedCheckoutSchema.safeParse(payment.checkout);
  const sellers = checkout.success ? checkout.data.orders.map((order) => order.sellerId) : [];
  // The orders in the checkout's order of sellers (they share one creation time).
  const orders = (await ordersOfPayment(deps.db, payment.id)).sort(
    (a, b) => sellers.indexOf(a.sellerId) - sellers.indexOf(b.sellerId),
  );
  const fresh = (await findPaymentById(deps.db, payment.id)) ?? payment;
  let message: string | null = null;
  if (orders.length === 0 && fresh.processedAt) {
    const refunds = await listRefundsOfPayment(deps.db, payment.id);
    message = refunds.find((refund) => refund.orderId === null)?.reason ?? null;
  }
  const provider = fresh.provider === 'stripe' ? 'stripe' : 'test';
  const status =
    fresh.status === 'succeeded' ||
    fresh.status === 'refunded' ||
    fresh.status === 'partially_refunded' ||
    fresh.status === 'failed'
      ? fresh.status
      : 'requires_payment';
  return {
    paymentId: fresh.id,
    provider,
    status,
    amount: formatCents(parseCents(fresh.amount)),
    message,
    orders,
  };
}

/** The answer to a success report: the orders; a sold-out item is a 409 with its name. */
async function answerProcessed(deps: PaymentDeps, payment: PaymentRow): Promise<PaymentResult> {
  const result = await resultOf(deps, payment);
  if (result.orders.length === 0 && result.message) throw conflict(result.message);
  return result;
}

async function findOwnPayment(db: Db, actor: Actor, id: string): Promise<PaymentRow> {
  const payment = await findPaymentById(db, id);
  if (!payment || payment.buyerId !== actor.id) throw notFound(PAYMENT_NOT_FOUND);
  return payment;
}

/** GET /api/payments/{id}: how the payment stands, with its orders once made. */
export async function getPayment(deps: PaymentDeps, actor: Actor, id: string): Promise<PaymentResult> {
  return resultOf(deps, await findOwnPayment(deps.db, actor, id));
}

function requireTestCard(body: PaymentConfirmBody, now: Date) {
  const missing: Record<string, string> = {};
  if (!body.cardNumber) missing.cardNumber = CARD_NUMBER_MESSAGE;
  if (!body.expiry) missing.expiry = CARD_EXPIRY_MESSAGE;
  if (!body.cvc) missing.cvc = CARD_CVC_MESSAGE;
  if (!body.name) missing.name = CARD_NAME_MESSAGE;
  if (!body.cardNumber || !body.expiry || !body.cvc || !body.name) {
    const fields = Object.entries(missing).map(([field, message]) => `${field}: ${message}`);
    throw badRequest(`Invalid request. ${fields.join('; ')}`, missing);
  }
  const expiry = parseExpiry(body.expiry);
  if (!expiry) throw badRequest(CARD_EXPIRY_MESSAGE, { expiry: CARD_EXPIRY_MESSAGE });
  if (isExpired(expiry, now)) throw badRequest(CARD_EXPIRED_MESSAGE, { expiry: CARD_EXPIRED_MESSAGE });
  return { cardNumber: body.cardNumber, expiry: body.expiry, cvc: body.cvc, name: body.name };
}

/**
 * POST /api/payments/{id}/confirm. Test provider: charges the card (402 with the card's message when
 * declined) and makes the orders. Stripe: the browser has confirmed the card with Stripe.js; this
 * asks Stripe how the payment stands and makes the orders once it succeeded. Reporting success
 * again (double click, reload) answers the same orders.
 */
export async function confirmPayment(
  deps: PaymentDeps,
  actor: Actor,
  id: string,
  body: PaymentConfirmBody,
): Promise<PaymentResult> {
  const payment = await findOwnPayment(deps.db, actor, id);
  if (payment.processedAt) return answerProcessed(deps, payment);
  const { payments: provider } = deps;
  if (payment.provider !== provider.name)
    throw conflict('This payment was started with another payment provider. Please check out again.');

  if (provider.confirmCard) {
    if (payment.status === 'requires_payment') {
      const card = requireTestCard(body, deps.now());
      const outcome = await provider.confirmCard(payment.providerPaymentId, card);
      if (outcome.outcome === 'declined') {
        deps.log.info({ paymentId: id }, 'card declined');
        throw new AppError('payment_failed', outcome.message);
      }
    }
  } else {
    if (body.cardNumber || body.cvc || body.expiry)
      throw badRequest('Card details are entered in the card form of Stripe and never sent to this server');
    const remote = await withProvider(() => provider.retrievePayment(payment.providerPaymentId));
    if (remote.status !== 'succeeded') {
      const result = await resultOf(deps, payment);
      return { ...result, status: remote.status === 'processing' ? 'processing' : 'requires_payment' };
    }
    if (remote.amount !== parseCents(payment.amount) || remote.currency !== payment.currency) {
      deps.log.error({ paymentId: id, remote }, 'provider amount differs from the payment');
      throw conflict('The amount charged does not match this checkout. Please contact support.');
    }
  }
  await processPaidPayment(deps, payment.id);
  return answerProcessed(deps, payment);
}

/**
 * POST /api/stripe/webhook: the signature is checked over the raw body by the Stripe library;
 * payment_intent.succeeded goes through the same exactly-once processing as the confirm call.
 */
export async function handlePaymentWebhook(
  deps: PaymentDeps,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<{ received: true }> {
  const { payments: provider } = deps;
  if (!provider.parseWebhook) throw notFound();
  let event: PaymentWebhookEvent;
  try {
    event = provider.parseWebhook(rawBody, signature);
  } catch (error) {
    if (error instanceof WebhookSignatureError)
      throw badRequest(`Webhook signature check failed: ${error.message}`);
    throw error;
  }
  if (event.type !== 'payment_succeeded') return { received: true };
  const payment = await findPaymentByProviderId(deps.db, provider.name, event.providerPaymentId);
  if (!payment) {
    deps.log.warn({ providerPaymentId: event.providerPaymentId }, 'webhook for an unknown payment; ignored');
    return { received: true };
  }
  const outcome = await processPaidPayment(deps, payment.id);
  deps.log.info({ paymentId: payment.id, outcome: outcome.kind }, 'payment webhook processed');
  return { received: true };
}

export interface RecoveryReport {
  processed: number;
  refundsRetried: number;
}

/**
 * Start-up recovery (DECISIONS §5: a crash between charge and order creation is never lost):
 * payments charged but not processed are processed now, Stripe payments not yet known to be charged
 * are asked about, and refunds whose provider call never completed are made.
 */
export async function recoverPaidCheckouts(deps: PaymentDeps): Promise<RecoveryReport> {
  const { payments: provider } = deps;
  let processed = 0;
  const since = new Date(deps.now().getTime() - RECOVERY_WINDOW_MS);
  for (const payment of await listUnprocessedPayments(deps.db, since, 500)) {
    if (payment.provider !== provider.name) continue;
    try {
      if (payment.status !== 'succeeded') {
        const remote = await provider.retrievePayment(payment.providerPaymentId);
        if (remote.status !== 'succeeded' || remote.amount !== parseCents(payment.amount)) continue;
      }
      const outcome = await processPaidPayment(deps, payment.id);
      if (outcome.kind !== 'already') processed += 1;
    } catch (error) {
      deps.log.error(
        { err: error, paymentId: payment.id },
        'could not recover a payment; will retry at next start',
      );
    }
  }
  const refundsRetried = await retryPendingRefunds(deps);
  if (processed > 0 || refundsRetried > 0)
    deps.log.info({ processed, refundsRetried }, 'recovered paid checkouts');
  return { processed, refundsRetried };
}
