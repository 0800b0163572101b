import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import { startFakeStripe, type FakeStripeServer } from '../../testing/stripe-server';
import {
  confirm,
  createAddress,
  createProduct,
  paymentRow,
  refundsOf,
  startPayment,
  stockOf,
  SUCCEEDING_CARD,
  type OrderJson,
  type PaymentJson,
} from '../../testing/commerce';
import { orders } from '../../db/schema';

/** The whole checkout with Stripe as the provider, against the local Stripe-speaking server. */
let t: TestApp;
let fake: FakeStripeServer;
const webhookSecret = 'whsec_checkouttest';
const signer = new Stripe('sk_test_signeronly');

beforeAll(async () => {
  // The platform has money available, so a refund is made at once (Stripe holds it pending otherwise).
  fake = await startFakeStripe({ platformAvailable: 100_000 });
  t = await createTestApp({
    env: {
      STRIPE_SECRET_KEY: fake.secretKey,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_checkout',
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_BASE: fake.url,
    },
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

function webhook(intentId: string, options: { secret?: string; type?: string } = {}) {
  const intent = fake.intents.get(intentId);
  const payload = JSON.stringify({
    id: `evt_${intentId}`,
    object: 'event',
    type: options.type ?? 'payment_intent.succeeded',
    data: { object: intent ?? { id: intentId, object: 'payment_intent' } },
    livemode: false,
  });
  const signature = signer.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? webhookSecret,
  });
  return t.app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });
}

async function checkout(stock = 5, price = '25.00') {
  const buyer = await signedInAs(t, 'buyer');
  const seller = await signedInAs(t, 'seller');
  const address = await createAddress(t, buyer.id);
  const product = await createProduct(t, seller.id, { stock, price, name: 'Walnut Shelf' });
  const body = {
    items: [{ productId: product.id, quantity: 1 }],
    isPickup: false,
    deliveryAddressId: address.id,
  };
  return { buyer, seller, product, body };
}

async function pay(buyer: TestUser, body: Record<string, unknown>) {
  const started = await startPayment(t, buyer, body);
  expect(started.statusCode).toBe(201);
  const intent = started.json<PaymentJson & { publishableKey: string }>();
  const row = await paymentRow(t, intent.paymentId);
  return { intent, providerPaymentId: row?.providerPaymentId ?? '' };
}

const ordersOf = (paymentId: string) =>
  t.database.db.select().from(orders).where(eq(orders.paymentId, paymentId));

describe('checkout with Stripe', () => {
  it('creates a PaymentIntent for the server total and answers its client secret', async () => {
    const { buyer, body } = await checkout();
    const { intent, providerPaymentId } = await pay(buyer, body);
    expect(intent).toMatchObject({ provider: 'stripe', publishableKey: 'pk_test_checkout', amount: '35.00' });
    expect(intent.clientSecret).toBe(fake.intents.get(providerPaymentId)?.client_secret);
    expect(fake.intents.get(providerPaymentId)).toMatchObject({
      amount: 3500,
      currency: 'usd',
      metadata: { paymentId: intent.paymentId },
    });
  });

  it('makes the orders once from the webhook, however often it and the browser report success', async () => {
    const { buyer, product, body } = await checkout();
    const { intent, providerPaymentId } = await pay(buyer, body);
    const early = await confirm(t, buyer, intent.paymentId, {});
    expect(early.statusCode).toBe(200);
    expect(early.json()).toMatchObject({ status: 'requires_payment', orders: [] });
    expect((await confirm(t, buyer, intent.paymentId, SUCCEEDING_CARD)).statusCode).toBe(400);

    fake.succeed(providerPaymentId); // what Stripe.js confirming the card does
    const deliveries = await Promise.all([webhook(providerPaymentId), webhook(providerPaymentId)]);
    const retried = await webhook(providerPaymentId);
    for (const response of [...deliveries, retried]) {
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ received: true });
    }
    const reported = await confirm(t, buyer, intent.paymentId, {});
    expect(reported.statusCode).toBe(200);
    const made = reported.json<{ status: string; orders: OrderJson[] }>();
    expect(made.status).toBe('succeeded');
    expect(made.orders).toHaveLength(1);
    expect(made.orders[0]).toMatchObject({ paymentIntentId: providerPaymentId, total: '35.00' });
    expect(await ordersOf(intent.paymentId)).toHaveLength(1);
    expect(await stockOf(t, product.id)).toBe(4);
  });

  it('refuses webhooks without a valid signature and ignores other events', async () => {
    const { buyer, body } = await checkout();
    const { intent, providerPaymentId } = await pay(buyer, body);
    fake.succeed(providerPaymentId);
    const forged = await webhook(providerPaymentId, { secret: 'whsec_attacker' });
    expect(forged.statusCode).toBe(400);
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        type: 'payment_intent.succeeded',
        data: { object: { id: providerPaymentId } },
      }),
    });
    expect(unsigned.statusCode).toBe(400);
    expect(await ordersOf(intent.paymentId)).toHaveLength(0);
    const other = await webhook(providerPaymentId, { type: 'payment_intent.created' });
    expect(other.statusCode).toBe(200);
    expect(await ordersOf(intent.paymentId)).toHaveLength(0);
    const unknown = await webhook('pi_notours');
    expect(unknown.statusCode).toBe(200);
  });

  it('refunds the buyer who lost the last unit through Stripe at once', async () => {
    const { buyer, product, body } = await checkout(1);
    const rival = await signedInAs(t, 'buyer');
    const rivalAddress = await createAddress(t, rival.id);
    const first = await pay(buyer, body);
    const second = await pay(rival, { ...body, deliveryAddressId: rivalAddress.id });
    fake.succeed(first.providerPaymentId);
    fake.succeed(second.providerPaymentId);
    const answers = await Promise.all([
      confirm(t, buyer, first.intent.paymentId, {}),
      confirm(t, rival, second.intent.paymentId, {}),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const loser = answers[0]?.statusCode === 409 ? first : second;
    expect(answers.find((r) => r.statusCode === 409)?.json()).toMatchObject({
      message: 'Out of stock: Walnut Shelf',
    });
    expect(await stockOf(t, product.id)).toBe(0);
    expect(fake.refunds.filter((r) => r.payment_intent === loser.providerPaymentId)).toEqual([
      expect.objectContaining({ amount: 3500, status: 'succeeded' }),
    ]);
    const [refund] = await refundsOf(t, loser.intent.paymentId);
    expect(refund?.providerRefundId).toMatch(/^re_/);
    expect(await paymentRow(t, loser.intent.paymentId)).toMatchObject({ status: 'refunded' });
    // A late webhook for the loser changes nothing.
    expect((await webhook(loser.providerPaymentId)).statusCode).toBe(200);
    expect(fake.refunds.filter((r) => r.payment_intent === loser.providerPaymentId)).toHaveLength(1);
  });

  it('cancelling refunds the order through Stripe; a refund Stripe could not take is made at the next start', async () => {
    const { buyer, product, body } = await checkout();
    const { intent, providerPaymentId } = await pay(buyer, body);
    fake.succeed(providerPaymentId);
    const [order] = (await confirm(t, buyer, intent.paymentId, {})).json<{ orders: OrderJson[] }>().orders;
    fake.failNext(3); // Stripe down for the refund and its two retries
    const cancelled = await as(t, buyer, { method: 'POST', url: `/api/orders/${order?.id ?? ''}/cancel` });
    expect(cancelled.statusCode).toBe(200);
    expect(await stockOf(t, product.id)).toBe(5);
    const [pending] = await refundsOf(t, intent.paymentId);
    expect(pending).toMatchObject({ amount: '35.00', providerRefundId: null });
    expect(fake.refunds.filter((r) => r.payment_intent === providerPaymentId)).toEqual([]);

    const report = await t.app.recoverPaidCheckouts();
    expect(report.refundsMade).toBeGreaterThanOrEqual(1);
    expect(fake.refunds.filter((r) => r.payment_intent === providerPaymentId)).toEqual([
      expect.objectContaining({ amount: 3500 }),
    ]);
    const [made] = await refundsOf(t, intent.paymentId);
    expect(made?.providerRefundId).toMatch(/^re_/);
  });

  it('makes the orders at start-up for a payment Stripe charged but nobody reported', async () => {
    const { buyer, body } = await checkout();
    const { intent, providerPaymentId } = await pay(buyer, body);
    fake.succeed(providerPaymentId);
    await t.app.recoverPaidCheckouts();
    expect(await ordersOf(intent.paymentId)).toHaveLength(1);
  });
});
