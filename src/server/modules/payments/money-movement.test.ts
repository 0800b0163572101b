import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import { signWebhook, startFakeStripe, type FakeStripeServer } from '../../testing/stripe-server';
import {
  confirm,
  createAddress,
  createProduct,
  paymentRow,
  refundsOf,
  startPayment,
  stockOf,
  type OrderJson,
  type PaymentJson,
} from '../../testing/commerce';
import { orders, payments, products } from '../../db/schema';
import { CHECKOUT_ALREADY_PAID_MESSAGE } from '../../../domain/checkout';
import { AMOUNT_MISMATCH_MESSAGE, PAYMENT_CANCELLED_MESSAGE } from './charge-check';
import { REPRICED_TOTAL_MESSAGE } from './process-paid-payment';

/**
 * Payments ready to move money (docs/decisions/0013-money-movement.md, Payments and refunds),
 * against the local server that speaks Stripe's API, on a clock the test moves (the app's and the
 * fake Stripe's together).
 */
let t: TestApp;
let fake: FakeStripeServer;
let offsetMs = 0;
const webhookSecret = 'whsec_moneytest';
const HOUR = 60 * 60 * 1000;

beforeAll(async () => {
  fake = await startFakeStripe();
  t = await createTestApp({
    now: () => new Date(Date.now() + offsetMs),
    env: {
      STRIPE_SECRET_KEY: fake.secretKey,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_money',
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

function advance(ms: number) {
  offsetMs += ms;
  fake.advance(ms);
}

function postEvent(event: unknown) {
  const payload = JSON.stringify(event);
  return t.app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signWebhook(payload, webhookSecret) },
    payload,
  });
}

async function checkout(options: { price?: string; stock?: number } = {}) {
  const buyer = await signedInAs(t, 'buyer');
  const seller = await signedInAs(t, 'seller');
  const address = await createAddress(t, buyer.id);
  const product = await createProduct(t, seller.id, {
    stock: options.stock ?? 5,
    price: options.price ?? '25.00',
    name: `Maple Desk ${crypto.randomBytes(3).toString('hex')}`,
  });
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
  const intent = started.json<PaymentJson>();
  const row = await paymentRow(t, intent.paymentId);
  return { intent, providerPaymentId: row?.providerPaymentId ?? '' };
}

async function paidOrder() {
  const { buyer, body, product } = await checkout();
  const { intent, providerPaymentId } = await pay(buyer, body);
  fake.succeed(providerPaymentId);
  const confirmed = await confirm(t, buyer, intent.paymentId, {});
  expect(confirmed.statusCode).toBe(200);
  const [order] = confirmed.json<{ orders: OrderJson[] }>().orders;
  if (!order) throw new Error('no order');
  return { buyer, product, order, paymentId: intent.paymentId, providerPaymentId };
}

const ordersOf = (paymentId: string) =>
  t.database.db.select().from(orders).where(eq(orders.paymentId, paymentId));
const fakeRefundsOf = (providerPaymentId: string) =>
  fake.refunds.filter((refund) => refund.payment_intent === providerPaymentId);
const cancel = (buyer: TestUser, orderId: string) =>
  as(t, buyer, { method: 'POST', url: `/api/orders/${orderId}/cancel` });

describe('the charge and the transfer group', () => {
  it('gives each PaymentIntent transfer_group payment_<id> and keeps the charge learnt from confirm or webhook', async () => {
    const first = await paidOrder();
    const row = await paymentRow(t, first.paymentId);
    expect(row?.transferGroup).toBe(`payment_${first.paymentId}`);
    expect(fake.intents.get(first.providerPaymentId)?.transfer_group).toBe(`payment_${first.paymentId}`);
    expect(row?.providerChargeId).toMatch(/^ch_/);
    expect(row?.providerChargeId).toBe(fake.intents.get(first.providerPaymentId)?.latest_charge);

    const { buyer, body } = await checkout();
    const { intent, providerPaymentId } = await pay(buyer, body);
    const succeeded = fake.succeed(providerPaymentId);
    expect((await postEvent(fake.event('payment_intent.succeeded', succeeded))).statusCode).toBe(200);
    expect(await paymentRow(t, intent.paymentId)).toMatchObject({
      status: 'succeeded',
      providerChargeId: succeeded.latest_charge,
    });
  });
});

describe('refunds tracked to their final state', () => {
  it('a refund Stripe leaves pending and then fails is followed by its events and shown to the admin', async () => {
    const { buyer, order, paymentId, providerPaymentId } = await paidOrder();
    fake.setNextRefundOutcome('pending');
    expect((await cancel(buyer, order.id)).statusCode).toBe(200);
    const [pending] = await refundsOf(t, paymentId);
    expect(pending).toMatchObject({ status: 'pending', attempts: 1, lastError: null });
    expect(pending?.providerRefundId).toMatch(/^re_/);

    const admin = await signedInAs(t, 'admin');
    const waiting = await as(t, admin, { method: 'GET', url: '/api/admin/refunds' });
    expect(waiting.statusCode).toBe(200);
    expect(waiting.json<{ refunds: unknown[] }>().refunds).toContainEqual(
      expect.objectContaining({
        id: pending?.id,
        orderNumber: order.orderNumber,
        amount: '35.00',
        status: 'pending',
      }),
    );

    const failed = fake.settleRefund(pending?.providerRefundId ?? '', 'failed', 'expired_or_canceled_card');
    expect(failed.type).toBe('refund.failed');
    expect((await postEvent(failed)).statusCode).toBe(200);
    const [after] = await refundsOf(t, paymentId);
    expect(after).toMatchObject({ status: 'failed', failureReason: 'expired_or_canceled_card' });

    const listed = await as(t, admin, { method: 'GET', url: '/api/admin/refunds' });
    expect(listed.json<{ refunds: unknown[] }>().refunds).toContainEqual(
      expect.objectContaining({
        orderNumber: order.orderNumber,
        reason: 'Order cancelled',
        status: 'failed',
        failureReason: 'expired_or_canceled_card',
        attempts: 1,
        createdAt: pending?.createdAt.toISOString(),
      }),
    );
    // A failed refund is final: the timer does not make it again (a person decides).
    await t.app.recoverPaidCheckouts();
    expect(fakeRefundsOf(providerPaymentId)).toHaveLength(1);
  });

  it('the timer asks again about a pending refund, and charge.refund.updated is read as well', async () => {
    const first = await paidOrder();
    fake.setNextRefundOutcome('pending');
    await cancel(first.buyer, first.order.id);
    const [pending] = await refundsOf(t, first.paymentId);
    fake.settleRefund(pending?.providerRefundId ?? '', 'succeeded'); // no event reaches us
    const report = await t.app.recoverPaidCheckouts();
    expect(report.refundsRechecked).toBeGreaterThanOrEqual(1);
    expect((await refundsOf(t, first.paymentId))[0]).toMatchObject({ status: 'succeeded', attempts: 2 });

    const second = await paidOrder();
    fake.setNextRefundOutcome('requires_action');
    await cancel(second.buyer, second.order.id);
    const [waiting] = await refundsOf(t, second.paymentId);
    expect(waiting?.status).toBe('requires_action');
    const settled = fake.settleRefund(waiting?.providerRefundId ?? '', 'succeeded');
    expect((await postEvent({ ...settled, type: 'charge.refund.updated' })).statusCode).toBe(200);
    expect((await refundsOf(t, second.paymentId))[0]?.status).toBe('succeeded');
  });

  it('only admins list the refunds that need attention', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/refunds' })).statusCode).toBe(401);
    const buyer = await signedInAs(t, 'buyer');
    expect((await as(t, buyer, { method: 'GET', url: '/api/admin/refunds' })).statusCode).toBe(403);
  });
});

describe('idempotency past the 24-hour key window', () => {
  it('a refund whose answer was lost, retried two days later, is found at Stripe and not made twice', async () => {
    const { buyer, order, paymentId, providerPaymentId } = await paidOrder();
    fake.loseNext(3); // the refund is made, and the answers of the call and its two retries are lost
    expect((await cancel(buyer, order.id)).statusCode).toBe(200);
    const [lost] = await refundsOf(t, paymentId);
    expect(lost).toMatchObject({ status: 'pending', providerRefundId: null, attempts: 1 });
    expect(lost?.lastError).toMatch(/Stripe is not reachable/);
    expect(fakeRefundsOf(providerPaymentId)).toHaveLength(1);

    advance(48 * HOUR); // Stripe has forgotten the key
    const report = await t.app.recoverPaidCheckouts();
    expect(report.refundsMade).toBeGreaterThanOrEqual(1);
    expect(fakeRefundsOf(providerPaymentId)).toHaveLength(1);
    const [found] = await refundsOf(t, paymentId);
    expect(found).toMatchObject({
      status: 'succeeded',
      providerRefundId: fakeRefundsOf(providerPaymentId)[0]?.id,
      attempts: 2,
      lastError: null,
    });
  });
});

describe('start-up recovery', () => {
  it('reaches a charged payment behind 501 abandoned ones', async () => {
    const { buyer, body } = await checkout();
    const base = new Date(Date.now() + offsetMs - 2 * HOUR);
    const abandoned = Array.from({ length: 501 }, (_, index) => {
      const id = `pi_abandoned${index}x${crypto.randomBytes(4).toString('hex')}`;
      fake.intents.set(id, {
        id,
        object: 'payment_intent',
        amount: 3500,
        amount_received: 0,
        currency: 'usd',
        status: 'requires_payment_method',
        client_secret: `${id}_secret_x`,
        metadata: {},
        transfer_group: null,
        latest_charge: null,
        cancellation_reason: null,
        canceled_at: null,
        created: Math.floor(base.getTime() / 1000),
        livemode: false,
      });
      return {
        buyerId: buyer.id,
        provider: 'stripe',
        providerPaymentId: id,
        amount: '35.00',
        currency: 'usd',
        status: 'requires_payment',
        checkout: {},
        createdAt: new Date(base.getTime() + index),
        updatedAt: base,
      };
    });
    await t.database.db.insert(payments).values(abandoned);
    const { intent, providerPaymentId } = await pay(buyer, body);
    fake.succeed(providerPaymentId); // charged, and neither the browser nor the webhook reported it

    const report = await t.app.recoverPaidCheckouts();
    expect(report.processed).toBe(1);
    expect(await ordersOf(intent.paymentId)).toHaveLength(1);
    // Cleared away so later tests' recovery runs stay small.
    await t.database.db.update(payments).set({ status: 'cancelled' }).where(eq(payments.buyerId, buyer.id));
  });
});

describe('abandoned payments and late payments', () => {
  it('cancels a payment still open a day after it started, at Stripe too; it cannot be paid after', async () => {
    const { buyer, body } = await checkout();
    const { intent, providerPaymentId } = await pay(buyer, body);
    advance(25 * HOUR);
    const report = await t.app.recoverPaidCheckouts();
    expect(report.cancelled).toBeGreaterThanOrEqual(1);
    expect(fake.intents.get(providerPaymentId)).toMatchObject({
      status: 'canceled',
      cancellation_reason: 'abandoned',
    });
    expect((await paymentRow(t, intent.paymentId))?.status).toBe('cancelled');
    const shown = await as(t, buyer, { method: 'GET', url: `/api/payments/${intent.paymentId}` });
    expect(shown.json()).toMatchObject({ status: 'cancelled', orders: [] });
    const late = await confirm(t, buyer, intent.paymentId, {});
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ message: PAYMENT_CANCELLED_MESSAGE });
  });

  it('re-prices a payment that arrives after its quote expired: same total makes orders, another total refunds', async () => {
    // The last unit: priced again before its stock is taken, it is still there to be bought.
    const same = await checkout({ stock: 1 });
    const kept = await pay(same.buyer, same.body);
    advance(2 * HOUR);
    fake.succeed(kept.providerPaymentId);
    const made = await confirm(t, same.buyer, kept.intent.paymentId, {});
    expect(made.statusCode).toBe(200);
    expect(await ordersOf(kept.intent.paymentId)).toHaveLength(1);
    expect(await stockOf(t, same.product.id)).toBe(0);

    const changed = await checkout();
    const late = await pay(changed.buyer, changed.body);
    await t.database.db.update(products).set({ price: '27.00' }).where(eq(products.id, changed.product.id));
    advance(2 * HOUR);
    fake.succeed(late.providerPaymentId);
    const refused = await confirm(t, changed.buyer, late.intent.paymentId, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ message: REPRICED_TOTAL_MESSAGE });
    expect(await ordersOf(late.intent.paymentId)).toHaveLength(0);
    expect(fakeRefundsOf(late.providerPaymentId)).toEqual([
      expect.objectContaining({ amount: 3500, status: 'succeeded' }),
    ]);
    expect((await paymentRow(t, late.intent.paymentId))?.status).toBe('refunded');

    const gone = await checkout();
    const lateGone = await pay(gone.buyer, gone.body);
    await t.database.db.update(products).set({ available: false }).where(eq(products.id, gone.product.id));
    advance(2 * HOUR);
    fake.succeed(lateGone.providerPaymentId);
    const unavailable = await confirm(t, gone.buyer, lateGone.intent.paymentId, {});
    expect(unavailable.statusCode).toBe(409);
    expect(unavailable.json<{ message: string }>().message).toMatch(
      /no order was placed\. The full amount has been refunded\.$/,
    );
  });

  it('a price change within the quote keeps the price paid', async () => {
    const { buyer, body, product } = await checkout();
    const { intent, providerPaymentId } = await pay(buyer, body);
    await t.database.db.update(products).set({ price: '27.00' }).where(eq(products.id, product.id));
    advance(HOUR / 2);
    fake.succeed(providerPaymentId);
    expect((await confirm(t, buyer, intent.paymentId, {})).statusCode).toBe(200);
    expect((await ordersOf(intent.paymentId))[0]?.total).toBe('35.00');
  });
});

describe('a reload of the payment screen', () => {
  it('reuses the open payment of the same checkout and refuses a second one while the first is processing', async () => {
    const { buyer, body } = await checkout();
    const first = await pay(buyer, body);
    const reloaded = await startPayment(t, buyer, body);
    expect(reloaded.statusCode).toBe(201);
    expect(reloaded.json<PaymentJson>()).toMatchObject({
      paymentId: first.intent.paymentId,
      clientSecret: first.intent.clientSecret,
    });

    fake.process(first.providerPaymentId); // a payment method that settles later
    const during = await startPayment(t, buyer, body);
    expect(during.statusCode).toBe(409);
    expect(during.json()).toMatchObject({ message: CHECKOUT_ALREADY_PAID_MESSAGE });

    fake.succeed(first.providerPaymentId); // settled; no webhook yet
    const afterCharge = await startPayment(t, buyer, body);
    expect(afterCharge.statusCode).toBe(409);
    // The reload made the orders of the charged payment, once.
    expect(await ordersOf(first.intent.paymentId)).toHaveLength(1);
    const buyerPayments = await t.database.db.select().from(payments).where(eq(payments.buyerId, buyer.id));
    expect(buyerPayments).toHaveLength(1);
  });

  it('replaces the open payment when the total changed, cancelling the old intent', async () => {
    const { buyer, body, product } = await checkout();
    const first = await pay(buyer, body);
    await t.database.db.update(products).set({ price: '30.00' }).where(eq(products.id, product.id));
    const second = await startPayment(t, buyer, body);
    expect(second.statusCode).toBe(201);
    expect(second.json<PaymentJson>()).toMatchObject({ amount: '40.00' });
    expect(second.json<PaymentJson>().paymentId).not.toBe(first.intent.paymentId);
    expect(fake.intents.get(first.providerPaymentId)?.status).toBe('canceled');
    expect((await paymentRow(t, first.intent.paymentId))?.status).toBe('cancelled');
  });
});

describe('the webhook checks the amount as the confirm call does', () => {
  it('makes no order for an intent charged for another amount or currency', async () => {
    const { buyer, body } = await checkout();
    const { intent, providerPaymentId } = await pay(buyer, body);
    const charged = fake.succeed(providerPaymentId);
    expect(
      (await postEvent(fake.event('payment_intent.succeeded', { ...charged, amount: 100 }))).statusCode,
    ).toBe(200);
    expect(
      (await postEvent(fake.event('payment_intent.succeeded', { ...charged, currency: 'eur' }))).statusCode,
    ).toBe(200);
    expect(await ordersOf(intent.paymentId)).toHaveLength(0);
    expect((await paymentRow(t, intent.paymentId))?.processedAt).toBeNull();
    charged.amount = 100; // Stripe itself says so: the confirm call refuses it too
    const confirmed = await confirm(t, buyer, intent.paymentId, {});
    expect(confirmed.statusCode).toBe(409);
    expect(confirmed.json()).toMatchObject({ message: AMOUNT_MISMATCH_MESSAGE });
    expect(await ordersOf(intent.paymentId)).toHaveLength(0);
  });
});
