import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { untilSomeoneWaitsForALock } from '../../testing/lock-wait';
import {
  as,
  createTestApp,
  signedInAs,
  TEST_DB_KIND,
  type TestApp,
  type TestUser,
} from '../../testing/test-app';
import {
  buy,
  confirm,
  createAddress,
  createProduct,
  DECLINED_CARD,
  openEveryDay,
  paymentRow,
  quote,
  refundsOf,
  startPayment,
  stockOf,
  SUCCEEDING_CARD,
  type OrderJson,
  type PaymentJson,
} from '../../testing/commerce';
import { addresses, orderItems, orders, orderStatusEvents, payments, products } from '../../db/schema';
import { TestPaymentProvider } from '../../adapters/payments/test-payment-provider';
import { TestPayoutTransfers } from '../../adapters/payouts/test-payout-transfers';
import type { PaymentDeps } from './payment-deps';
import { processPaidPayment } from './process-paid-payment';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

async function buyerWithAddress(): Promise<{ buyer: TestUser; addressId: string }> {
  const buyer = await signedInAs(t, 'buyer');
  const address = await createAddress(t, buyer.id);
  return { buyer, addressId: address.id };
}

async function seller() {
  const user = await signedInAs(t, 'seller', { firstName: 'Sam', lastName: 'Seller' });
  await createAddress(t, user.id);
  return user;
}

/**
 * Runs two processings of one charged payment at the same time. The embedded database runs one
 * transaction at a time, so there the second reaches its claim right after the first committed its
 * orders. On PostgreSQL they truly overlap: a lock on the product stops the first processing after
 * its claim, before it takes the stock and makes the orders, until the second is waiting at its own
 * claim; only then does the first go on.
 */
async function processTwiceAtOnce(deps: PaymentDeps, paymentId: string, productId: string) {
  const twice = () => Promise.all([processPaidPayment(deps, paymentId), processPaidPayment(deps, paymentId)]);
  if (TEST_DB_KIND === 'pglite') return twice();
  let both: ReturnType<typeof twice> | undefined;
  await t.database.db.transaction(async (tx) => {
    await tx.select({ id: products.id }).from(products).where(eq(products.id, productId)).for('update');
    both = twice();
    await untilSomeoneWaitsForALock(t, 'one of the two processings', 2);
  });
  if (!both) throw new Error('the processings did not start');
  return both;
}

interface QuoteJson {
  orders: {
    sellerId: string;
    deliveryFee: string;
    productSubtotal: string;
    total: string;
    sellerDelivery: boolean;
    items: { price: string }[];
  }[];
  productSubtotal: string;
  deliveryFee: string;
  total: string;
  problems: { code: string; message: string; field: string }[];
  canPay: boolean;
  pickupAvailable: boolean;
}

describe('POST /api/checkout/quote', () => {
  it('prices from the database, one order per seller, with the delivery fee of each', async () => {
    const { buyer, addressId } = await buyerWithAddress();
    const first = await seller();
    const second = await seller();
    const third = await seller();
    const chair = await createProduct(t, first.id, { price: '25.00' });
    const trailerDesk = await createProduct(t, second.id, { price: '100.00', requiresTrailer: true });
    const lamp = await createProduct(t, third.id, {
      price: '15.50',
      sellerDelivery: true,
      sellerDeliveryFee: '4.00',
    });
    const rug = await createProduct(t, third.id, {
      price: '30.00',
      sellerDelivery: true,
      sellerDeliveryFee: '7.25',
    });
    const response = await quote(t, buyer, {
      items: [
        { productId: chair.id, quantity: 2, expectedPrice: '0.01' },
        { productId: trailerDesk.id, quantity: 1 },
        { productId: lamp.id, quantity: 1 },
        { productId: rug.id, quantity: 1 },
      ],
      isPickup: false,
      deliveryAddressId: addressId,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<QuoteJson>();
    expect(
      body.orders.map((o) => [o.sellerId, o.productSubtotal, o.deliveryFee, o.total, o.sellerDelivery]),
    ).toEqual([
      [first.id, '50.00', '10.00', '60.00', false],
      [second.id, '100.00', '50.00', '150.00', false],
      [third.id, '45.50', '7.25', '52.75', true],
    ]);
    expect(body.orders[0]?.items[0]?.price).toBe('25.00');
    expect(body).toMatchObject({
      productSubtotal: '195.50',
      deliveryFee: '67.25',
      total: '262.75',
      canPay: false,
    });
    expect(body.problems).toEqual([
      expect.objectContaining({
        code: 'price_changed',
        message: 'The price of ' + chair.name + ' changed from $0.01 to $25.00',
      }),
    ]);
  });

  it('reports unavailable, sold-out and short items, and unknown products', async () => {
    const { buyer, addressId } = await buyerWithAddress();
    const s = await seller();
    const gone = await createProduct(t, s.id, { available: false, name: 'Gone Chair' });
    const soldOut = await createProduct(t, s.id, { stock: 0, name: 'Sold Table' });
    const short = await createProduct(t, s.id, { stock: 2, name: 'Short Lamp' });
    const response = await quote(t, buyer, {
      items: [
        { productId: gone.id, quantity: 1 },
        { productId: soldOut.id, quantity: 1 },
        { productId: short.id, quantity: 3 },
        { productId: '00000000-0000-4000-8000-000000000000', quantity: 1 },
      ],
      isPickup: false,
      deliveryAddressId: addressId,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<QuoteJson>().problems.map((p) => p.message)).toEqual([
      'Gone Chair is no longer available',
      'Out of stock: Sold Table',
      'Only 2 left of Short Lamp',
      'A product in your cart no longer exists',
    ]);
  });

  it("answers the spec's checkout messages for a missing or unknown address", async () => {
    const { buyer } = await buyerWithAddress();
    const other = await signedInAs(t, 'buyer');
    const othersAddress = await createAddress(t, other.id);
    const s = await seller();
    const product = await createProduct(t, s.id);
    const items = [{ productId: product.id, quantity: 1 }];
    const missing = await quote(t, buyer, { items, isPickup: false });
    expect(missing.json<QuoteJson>().problems).toEqual([
      expect.objectContaining({
        code: 'missing_address',
        message: 'Please select a delivery address',
        field: 'deliveryAddressId',
      }),
    ]);
    const foreign = await quote(t, buyer, { items, isPickup: false, deliveryAddressId: othersAddress.id });
    expect(foreign.json<QuoteJson>().problems).toEqual([
      expect.objectContaining({ code: 'address_not_found', message: 'Selected address not found' }),
    ]);
    const paying = await startPayment(t, buyer, { items, isPickup: false });
    expect(paying.statusCode).toBe(400);
    expect(paying.json()).toMatchObject({
      message: 'Please select a delivery address',
      fields: { deliveryAddressId: 'Please select a delivery address' },
    });
  });

  it('offers pickup only when every item does, and needs a valid pickup time per seller', async () => {
    const { buyer } = await buyerWithAddress();
    const s = await seller();
    await openEveryDay(t, s.id);
    const pickupOnly = await createProduct(t, s.id, { offerPickup: true, requiresTrailer: true });
    const deliveryOnly = await createProduct(t, s.id, { offerPickup: false, name: 'Heavy Sofa' });
    const mixed = await quote(t, buyer, {
      items: [
        { productId: pickupOnly.id, quantity: 1 },
        { productId: deliveryOnly.id, quantity: 1 },
      ],
      isPickup: true,
    });
    const mixedBody = mixed.json<QuoteJson>();
    expect(mixedBody.pickupAvailable).toBe(false);
    expect(mixedBody.problems.map((p) => p.message)).toContain('Heavy Sofa cannot be picked up');

    const items = [{ productId: pickupOnly.id, quantity: 1 }];
    const noTime = await quote(t, buyer, { items, isPickup: true });
    expect(noTime.json<QuoteJson>()).toMatchObject({ pickupAvailable: true, deliveryFee: '0.00' });
    expect(noTime.json<QuoteJson>().problems).toEqual([
      expect.objectContaining({
        code: 'missing_pickup_time',
        message: 'Please select a pickup time from the seller',
        field: `scheduledPickupTimes.${s.id}`,
      }),
    ]);
    const wrongTime = await quote(t, buyer, {
      items,
      isPickup: true,
      scheduledPickupTimes: { [s.id]: '2001-01-01T10:00:00.000Z' },
    });
    expect(wrongTime.json<QuoteJson>().problems.map((p) => p.code)).toEqual(['pickup_time_unavailable']);
    const slots = await as(t, buyer, { method: 'GET', url: `/api/availability/slots/${s.id}` });
    // The second slot: the first can come within the hour (and be refused) while the test runs.
    const offered = slots.json<{ datetime: string }[]>();
    const slot = offered[1] ?? offered[0];
    expect(slot).toBeDefined();
    const good = await quote(t, buyer, {
      items,
      isPickup: true,
      scheduledPickupTimes: { [s.id]: slot?.datetime },
    });
    expect(good.json<QuoteJson>()).toMatchObject({ canPay: true, problems: [], total: '20.00' });
    const [order] = await buy(t, buyer, {
      items,
      isPickup: true,
      scheduledPickupTimes: { [s.id]: slot?.datetime },
    });
    expect(order).toMatchObject({
      isPickup: true,
      deliveryFee: '0.00',
      driverEarnings: '0.00',
      scheduledPickupTime: slot?.datetime,
      deliveryAddress: 'Pickup at 1 Main St, Springfield, IL 62701',
      deliveryCommissionRate: '0.0000',
    });
  });

  it('refuses bodies with prices, totals or other keys a client may not set (mass assignment)', async () => {
    const { buyer, addressId } = await buyerWithAddress();
    const s = await seller();
    const product = await createProduct(t, s.id);
    const base = { isPickup: false, deliveryAddressId: addressId };
    const bad = [
      { ...base, items: [{ productId: product.id, quantity: 1, price: '0.01' }] },
      { ...base, items: [{ productId: product.id, quantity: 1 }], total: '0.01' },
      { ...base, items: [{ productId: product.id, quantity: 1 }], deliveryFee: '0.00' },
      { ...base, items: [{ productId: product.id, quantity: 1 }], buyerId: s.id },
      { ...base, items: [{ productId: product.id, quantity: 1 }], status: 'delivered' },
      { ...base, items: [{ productId: product.id, quantity: 0 }] },
      { ...base, items: [] },
    ];
    for (const payload of bad) {
      for (const url of ['/api/checkout/quote', '/api/payments']) {
        const response = await as(t, buyer, { method: 'POST', url, payload });
        expect(response.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(400);
      }
    }
    expect(await t.database.db.select().from(payments).where(eq(payments.buyerId, buyer.id))).toEqual([]);
  });

  it('needs a signed-in user', async () => {
    const payload = { items: [{ productId: '00000000-0000-4000-8000-000000000000', quantity: 1 }] };
    for (const url of ['/api/checkout/quote', '/api/payments']) {
      const response = await t.app.inject({ method: 'POST', url, payload });
      expect(response.statusCode).toBe(401);
    }
  });
});

describe('payments and orders', () => {
  it('charges the amount computed by the server, not what the client showed', async () => {
    const { buyer, addressId } = await buyerWithAddress();
    const s = await seller();
    const product = await createProduct(t, s.id, { price: '40.00' });
    const changed = await startPayment(t, buyer, {
      items: [{ productId: product.id, quantity: 2, expectedPrice: '1.00' }],
      isPickup: false,
      deliveryAddressId: addressId,
    });
    expect(changed.statusCode).toBe(409);
    expect(changed.json()).toMatchObject({
      message: `The price of ${product.name} changed from $1.00 to $40.00`,
    });

    const started = await startPayment(t, buyer, {
      items: [{ productId: product.id, quantity: 2, expectedPrice: 40 }],
      isPickup: false,
      deliveryAddressId: addressId,
    });
    expect(started.statusCode).toBe(201);
    const intent = started.json<PaymentJson>();
    expect(intent).toMatchObject({ provider: 'test', clientSecret: null, amount: '90.00' });
    expect((await paymentRow(t, intent.paymentId))?.amount).toBe('90.00');
    const confirmed = await confirm(t, buyer, intent.paymentId);
    expect(confirmed.statusCode).toBe(200);
    const [order] = confirmed.json<{ orders: OrderJson[] }>().orders;
    expect(order).toMatchObject({
      status: 'pending',
      productSubtotal: '80.00',
      deliveryFee: '10.00',
      total: '90.00',
      sellerEarnings: '72.00',
      driverEarnings: '9.00',
      platformFee: '9.00',
      salesCommissionRate: '0.1000',
      deliveryCommissionRate: '0.1000',
      buyerId: buyer.id,
      sellerId: s.id,
      deliveryAddress: '1 Main St, Springfield, IL 62701',
    });
    expect(order?.orderNumber).toMatch(/^ORD-[2-9A-HJ-NP-Z]{6}$/);
    expect(await stockOf(t, product.id)).toBe(8);
  });

  // The worked example (docs/rules/money.md, Fees and commission).
  it('stores the commission of the worked example, with 30-day sales from earlier orders', async () => {
    const { buyer, addressId } = await buyerWithAddress();
    const s = await seller();
    const earlier = await createProduct(t, s.id, { price: '2350.00' });
    const trailer = await createProduct(t, s.id, { price: '1200.00', requiresTrailer: true });
    const delivery = { isPickup: false, deliveryAddressId: addressId };
    const [first] = await buy(t, buyer, { ...delivery, items: [{ productId: earlier.id, quantity: 1 }] });
    // 2,350.00 spans four 500.00 tiers: 0.10 − 4 × 0.01.
    expect(first).toMatchObject({ seller30DaySales: '0.00', salesCommissionRate: '0.0600' });
    const [order] = await buy(t, buyer, { ...delivery, items: [{ productId: trailer.id, quantity: 1 }] });
    expect(order).toMatchObject({
      seller30DaySales: '2350.00',
      productSubtotal: '1200.00',
      deliveryFee: '50.00',
      total: '1250.00',
      salesCommissionRate: '0.0600',
      deliveryCommissionRate: '0.1000',
      purchasePlatformFee: '72.00',
      deliveryPlatformFee: '5.00',
      platformFee: '77.00',
      sellerEarnings: '1128.00',
      driverEarnings: '45.00',
      requiresTrailer: true,
    });
  });

  it('makes one order per seller, paid in one payment', async () => {
    const { buyer, addressId } = await buyerWithAddress();
    const a = await seller();
    const b = await seller();
    const pa = await createProduct(t, a.id, { price: '10.00' });
    const pb = await createProduct(t, b.id, {
      price: '12.00',
      sellerDelivery: true,
      sellerDeliveryFee: '3.00',
    });
    const made = await buy(t, buyer, {
      items: [
        { productId: pa.id, quantity: 1 },
        { productId: pb.id, quantity: 2 },
      ],
      isPickup: false,
      deliveryAddressId: addressId,
      deliveryNotes: 'Ring twice',
    });
    expect(made.map((o) => [o.sellerId, o.total, o.sellerEarnings, o.driverEarnings])).toEqual([
      [a.id, '20.00', '9.00', '9.00'],
      [b.id, '27.00', '24.60', '0.00'],
    ]);
    expect(made[1]).toMatchObject({
      sellerDelivery: true,
      deliveryNotes: 'Ring twice',
      deliveryCommissionRate: '0.0000',
    });
    expect(new Set(made.map((o) => o.paymentIntentId)).size).toBe(1);
  });

  it('processes a success reported three times (and at once) exactly once', async () => {
    const { buyer, addressId } = await buyerWithAddress();
    const s = await seller();
    const product = await createProduct(t, s.id, { stock: 5 });
    const started = await startPayment(t, buyer, {
      items: [{ productId: product.id, quantity: 2 }],
      isPickup: false,
      deliveryAddressId: addressId,
    });
    const { paymentId } = started.json<PaymentJson>();
    const concurrent = await Promise.all([1, 2, 3].map(() => confirm(t, buyer, paymentId)));
    const again = await confirm(t, buyer, paymentId);
    const webhookLess = await as(t, buyer, { method: 'GET', url: `/api/payments/${paymentId}` });
    for (const response of [...concurrent, again, webhookLess]) expect(response.statusCode).toBe(200);
    const ids = [...concurrent, again, webhookLess].map((r) =>
      r.json<{ orders: OrderJson[] }>().orders.map((o) => o.id),
    );
    expect(new Set(ids.map((list) => list.join())).size).toBe(1);
    expect(ids[0]).toHaveLength(1);
    expect(await t.database.db.select().from(orders).where(eq(orders.paymentId, paymentId))).toHaveLength(1);
    expect(await stockOf(t, product.id)).toBe(3);
    const [orderId] = ids[0] ?? [];
    const events = await t.database.db
      .select()
      .from(orderStatusEvents)
      .where(eq(orderStatusEvents.orderId, orderId ?? ''));
    expect(events).toEqual([
      expect.objectContaining({ fromStatus: null, toStatus: 'pending', actorId: buyer.id }),
    ]);
  });

  it('turns a charged payment into its orders once when two processings of it overlap', async () => {
    const { buyer, addressId } = await buyerWithAddress();
    const [lampSeller, chairSeller] = [await seller(), await seller()];
    const lamp = await createProduct(t, lampSeller.id, { stock: 5 });
    const chair = await createProduct(t, chairSeller.id, { stock: 5 });
    const started = await startPayment(t, buyer, {
      items: [
        { productId: lamp.id, quantity: 2 },
        { productId: chair.id, quantity: 1 },
      ],
      isPickup: false,
      deliveryAddressId: addressId,
    });
    expect(started.statusCode).toBe(201);
    const { paymentId } = started.json<PaymentJson>();
    // The card was charged once; the payment now waits to be turned into its orders.
    await t.database.db.update(payments).set({ status: 'succeeded' }).where(eq(payments.id, paymentId));
    const deps: PaymentDeps = {
      db: t.database.db,
      payments: new TestPaymentProvider(t.database.db),
      payouts: new TestPayoutTransfers(t.database.db),
      now: () => new Date(),
      timeZone: t.config.marketplaceTz,
      log: t.app.log,
      siteUrl: t.config.siteUrl,
    };

    const outcomes = await processTwiceAtOnce(deps, paymentId, lamp.id);

    expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(['already', 'placed']);
    const made = await t.database.db.select().from(orders).where(eq(orders.paymentId, paymentId));
    expect(made.map((order) => order.sellerId).sort()).toEqual([lampSeller.id, chairSeller.id].sort());
    expect(await stockOf(t, lamp.id)).toBe(3);
    expect(await stockOf(t, chair.id)).toBe(4);
    // Charged once and kept: nothing refunded, the payment processed once.
    expect(await refundsOf(t, paymentId)).toEqual([]);
    expect(await paymentRow(t, paymentId)).toMatchObject({
      status: 'succeeded',
      amount: started.json<PaymentJson>().amount,
    });
    // The buyer's confirm answers that one set of orders.
    const reported = await confirm(t, buyer, paymentId);
    expect(reported.statusCode).toBe(200);
    expect(
      reported
        .json<{ orders: OrderJson[] }>()
        .orders.map((order) => order.id)
        .sort(),
    ).toEqual(made.map((order) => order.id).sort());
  });

  it('refuses to start a payment for more than the stock, says how many are left, and keeps nothing', async () => {
    const { buyer, addressId } = await buyerWithAddress();
    const s = await seller();
    const product = await createProduct(t, s.id, { stock: 2, name: 'Short Shelf' });
    const response = await startPayment(t, buyer, {
      items: [{ productId: product.id, quantity: 3 }],
      isPickup: false,
      deliveryAddressId: addressId,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      message: 'Only 2 left of Short Shelf',
      code: 'conflict',
      requestId: expect.any(String),
    });
    expect(await t.database.db.select().from(payments).where(eq(payments.buyerId, buyer.id))).toEqual([]);
    expect(await stockOf(t, product.id)).toBe(2);
  });

  it('sells no more than the stock: a paid checkout the stock no longer covers is a 409, refunded, with no order', async () => {
    const s = await seller();
    const product = await createProduct(t, s.id, { stock: 3, name: 'Pair Chair', price: '25.00' });
    const first = await buyerWithAddress();
    const second = await buyerWithAddress();
    const twoChairs = (addressId: string) => ({
      items: [{ productId: product.id, quantity: 2 }],
      isPickup: false,
      deliveryAddressId: addressId,
    });
    // Each checkout alone fits in the stock of 3, so both may pay.
    const firstStarted = await startPayment(t, first.buyer, twoChairs(first.addressId));
    const secondStarted = await startPayment(t, second.buyer, twoChairs(second.addressId));
    expect([firstStarted.statusCode, secondStarted.statusCode]).toEqual([201, 201]);
    const secondPaymentId = secondStarted.json<PaymentJson>().paymentId;

    expect((await confirm(t, first.buyer, firstStarted.json<PaymentJson>().paymentId)).statusCode).toBe(200);
    const refused = await confirm(t, second.buyer, secondPaymentId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      message: 'Out of stock: Pair Chair',
      code: 'conflict',
      requestId: expect.any(String),
    });
    expect(await stockOf(t, product.id)).toBe(1);
    expect(await t.database.db.select().from(orders).where(eq(orders.buyerId, second.buyer.id))).toEqual([]);
    expect(await paymentRow(t, secondPaymentId)).toMatchObject({ status: 'refunded' });
    expect(await refundsOf(t, secondPaymentId)).toEqual([
      expect.objectContaining({ amount: '60.00', reason: 'Out of stock: Pair Chair', orderId: null }),
    ]);
  });

  it('makes no order for a declined card, and the buyer can pay with another card', async () => {
    const { buyer, addressId } = await buyerWithAddress();
    const s = await seller();
    const product = await createProduct(t, s.id, { stock: 3 });
    const started = await startPayment(t, buyer, {
      items: [{ productId: product.id, quantity: 1 }],
      isPickup: false,
      deliveryAddressId: addressId,
    });
    const { paymentId } = started.json<PaymentJson>();
    const declined = await confirm(t, buyer, paymentId, DECLINED_CARD);
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toMatchObject({ code: 'payment_failed', message: 'Your card was declined.' });
    expect(await t.database.db.select().from(orders).where(eq(orders.paymentId, paymentId))).toEqual([]);
    expect(await stockOf(t, product.id)).toBe(3);
    expect(await paymentRow(t, paymentId)).toMatchObject({ status: 'requires_payment', processedAt: null });
    const status = await as(t, buyer, { method: 'GET', url: `/api/payments/${paymentId}` });
    expect(status.json()).toMatchObject({ status: 'requires_payment', orders: [] });

    const retried = await confirm(t, buyer, paymentId, SUCCEEDING_CARD);
    expect(retried.statusCode).toBe(200);
    expect(retried.json<{ orders: OrderJson[] }>().orders).toHaveLength(1);
  });

  it('answers 400 with a message per field for a malformed card', async () => {
    const { buyer, addressId } = await buyerWithAddress();
    const s = await seller();
    const product = await createProduct(t, s.id);
    const started = await startPayment(t, buyer, {
      items: [{ productId: product.id, quantity: 1 }],
      isPickup: false,
      deliveryAddressId: addressId,
    });
    const { paymentId } = started.json<PaymentJson>();
    const malformed = await confirm(t, buyer, paymentId, {
      cardNumber: '4242 4242 4242 4241',
      expiry: '13/30',
      cvc: '12',
      name: 'X',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({
      fields: {
        cardNumber: 'Card number is invalid',
        expiry: 'Expiry must be MM/YY',
        cvc: 'CVC must be 3 or 4 digits',
      },
    });
    const missing = await confirm(t, buyer, paymentId, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      fields: { cardNumber: 'Card number is invalid', name: 'Name on card is required' },
    });
    const expired = await confirm(t, buyer, paymentId, { ...SUCCEEDING_CARD, expiry: '01/20' });
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatchObject({ message: 'Your card has expired.' });
    const extra = await confirm(t, buyer, paymentId, { ...SUCCEEDING_CARD, amount: '0.01' });
    expect(extra.statusCode).toBe(400);
    expect(await paymentRow(t, paymentId)).toMatchObject({ status: 'requires_payment' });
  });

  it("hides a buyer's payment from everyone else", async () => {
    const { buyer, addressId } = await buyerWithAddress();
    const stranger = await signedInAs(t, 'buyer');
    const s = await seller();
    const product = await createProduct(t, s.id);
    const started = await startPayment(t, buyer, {
      items: [{ productId: product.id, quantity: 1 }],
      isPickup: false,
      deliveryAddressId: addressId,
    });
    const { paymentId } = started.json<PaymentJson>();
    expect((await confirm(t, stranger, paymentId)).statusCode).toBe(404);
    expect((await as(t, stranger, { method: 'GET', url: `/api/payments/${paymentId}` })).statusCode).toBe(
      404,
    );
    expect(await paymentRow(t, paymentId)).toMatchObject({ status: 'requires_payment' });
  });

  it('sells the last unit to exactly one of 20 concurrent buyers; the 19 others are refunded at once', async () => {
    const s = await seller();
    const product = await createProduct(t, s.id, { stock: 1, name: 'Last Lamp', price: '30.00' });
    const buyers = await Promise.all(Array.from({ length: 20 }, () => buyerWithAddress()));
    const started = await Promise.all(
      buyers.map(({ buyer, addressId }) =>
        startPayment(t, buyer, {
          items: [{ productId: product.id, quantity: 1 }],
          isPickup: false,
          deliveryAddressId: addressId,
        }),
      ),
    );
    for (const response of started) expect(response.statusCode).toBe(201);
    const paymentIds = started.map((r) => r.json<PaymentJson>().paymentId);
    const answers = await Promise.all(buyers.map(({ buyer }, i) => confirm(t, buyer, paymentIds[i] ?? '')));
    const won = answers.filter((r) => r.statusCode === 200);
    const lost = answers.filter((r) => r.statusCode === 409);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(19);
    for (const response of lost)
      expect(response.json()).toMatchObject({ code: 'conflict', message: 'Out of stock: Last Lamp' });
    expect(await stockOf(t, product.id)).toBe(0);
    expect(await t.database.db.select().from(orders).where(eq(orders.sellerId, s.id))).toHaveLength(1);

    // The ledger: the winner is charged; each loser's charge is refunded in full at once.
    const ledger = await Promise.all(
      paymentIds.map(async (id) => ({ payment: await paymentRow(t, id), refunds: await refundsOf(t, id) })),
    );
    const charged = ledger.filter((entry) => entry.payment?.status === 'succeeded');
    const refunded = ledger.filter((entry) => entry.payment?.status === 'refunded');
    expect(charged).toHaveLength(1);
    expect(charged[0]?.refunds).toEqual([]);
    expect(refunded).toHaveLength(19);
    for (const entry of refunded) {
      expect(entry.refunds).toEqual([
        expect.objectContaining({
          amount: '40.00',
          reason: 'Out of stock: Last Lamp',
          orderId: null,
          providerRefundId: expect.stringMatching(/^tre_/),
        }),
      ]);
    }
    // Reporting a loser's payment again gives the same clear answer and still no order.
    const loser = answers.findIndex((r) => r.statusCode === 409);
    const loserBuyer = buyers[loser];
    if (!loserBuyer) throw new Error('no loser');
    const again = await confirm(t, loserBuyer.buyer, paymentIds[loser] ?? '');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: 'Out of stock: Last Lamp' });
  }, 60_000);

  it('recovers a payment charged but not processed (a crash between charge and order creation)', async () => {
    const { buyer, addressId } = await buyerWithAddress();
    const s = await seller();
    const product = await createProduct(t, s.id, { stock: 2 });
    const started = await startPayment(t, buyer, {
      items: [{ productId: product.id, quantity: 1 }],
      isPickup: false,
      deliveryAddressId: addressId,
    });
    const { paymentId } = started.json<PaymentJson>();
    // The charge happened at the provider; the process stopped before the orders were made.
    await t.database.db.update(payments).set({ status: 'succeeded' }).where(eq(payments.id, paymentId));
    const report = await t.app.recoverPaidCheckouts();
    expect(report.processed).toBeGreaterThanOrEqual(1);
    expect(await t.database.db.select().from(orders).where(eq(orders.paymentId, paymentId))).toHaveLength(1);
    expect(await stockOf(t, product.id)).toBe(1);
    const reported = await confirm(t, buyer, paymentId);
    expect(reported.statusCode).toBe(200);
    expect(reported.json<{ orders: OrderJson[] }>().orders).toHaveLength(1);
    expect((await t.app.recoverPaidCheckouts()).processed).toBe(0);
  });

  it('gives a test payment its transfer group and charge, and a reload reuses the open payment', async () => {
    const { buyer, addressId } = await buyerWithAddress();
    const s = await seller();
    const product = await createProduct(t, s.id, { stock: 2 });
    const body = {
      items: [{ productId: product.id, quantity: 1 }],
      isPickup: false,
      deliveryAddressId: addressId,
    };
    const { paymentId } = (await startPayment(t, buyer, body)).json<PaymentJson>();
    expect(await paymentRow(t, paymentId)).toMatchObject({
      transferGroup: `payment_${paymentId}`,
      providerChargeId: null,
    });
    // A reload of the payment screen (or a second tab) answers the same payment: one charge at most.
    const reloaded = await startPayment(t, buyer, body);
    expect(reloaded.statusCode).toBe(201);
    expect(reloaded.json<PaymentJson>().paymentId).toBe(paymentId);
    const [first, second] = await Promise.all([confirm(t, buyer, paymentId), confirm(t, buyer, paymentId)]);
    expect([first?.statusCode, second?.statusCode]).toEqual([200, 200]);
    const row = await paymentRow(t, paymentId);
    expect(row?.providerChargeId).toMatch(/^tch_/);
    expect(await t.database.db.select().from(payments).where(eq(payments.buyerId, buyer.id))).toHaveLength(1);
  });

  it('answers a paid confirmation with the payment and orders exactly as they are read back afterwards', async () => {
    const { buyer, addressId } = await buyerWithAddress();
    const [a, b] = [await seller(), await seller()];
    const pa = await createProduct(t, a.id, { price: '10.00', stock: 4 });
    const pb = await createProduct(t, b.id, { price: '12.00', stock: 4 });
    const started = await startPayment(t, buyer, {
      items: [
        { productId: pb.id, quantity: 2 },
        { productId: pa.id, quantity: 1 },
      ],
      isPickup: false,
      deliveryAddressId: addressId,
    });
    const { paymentId } = started.json<PaymentJson>();
    const confirmed = await confirm(t, buyer, paymentId);
    expect(confirmed.statusCode).toBe(200);
    const read = await as(t, buyer, { method: 'GET', url: `/api/payments/${paymentId}` });
    expect(confirmed.json()).toEqual(read.json());
    const { orders: made } = confirmed.json<{ orders: OrderJson[] }>();
    expect(made.map((order) => [order.sellerId, order.itemCount])).toEqual([
      [b.id, 2],
      [a.id, 1],
    ]);
    expect(made[0]?.pickupAddress).toMatchObject({ addressLine1: expect.any(String) });
    expect(await paymentRow(t, paymentId)).toMatchObject({
      providerChargeId: expect.stringMatching(/^tch_/),
    });
  });

  it('takes every line of a paid checkout or none: a short second product leaves the first one untouched', async () => {
    const { buyer, addressId } = await buyerWithAddress();
    const s = await seller();
    const lamp = await createProduct(t, s.id, { stock: 5, name: 'Desk Lamp' });
    const chair = await createProduct(t, s.id, { stock: 1, name: 'Tall Chair' });
    const started = await startPayment(t, buyer, {
      items: [
        { productId: lamp.id, quantity: 2 },
        { productId: chair.id, quantity: 1 },
      ],
      isPickup: false,
      deliveryAddressId: addressId,
    });
    const { paymentId } = started.json<PaymentJson>();
    // The chair sells elsewhere between the payment's start and its confirmation.
    await t.database.db.update(products).set({ stock: 0 }).where(eq(products.id, chair.id));
    const refused = await confirm(t, buyer, paymentId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ message: 'Out of stock: Tall Chair' });
    expect(await stockOf(t, lamp.id)).toBe(5);
    expect(await t.database.db.select().from(orders).where(eq(orders.paymentId, paymentId))).toEqual([]);
    expect(await paymentRow(t, paymentId)).toMatchObject({ status: 'refunded' });
  });

  it('sells two products to as many concurrent buyers as both stocks allow, whatever order their carts list them in', async () => {
    const s = await seller();
    const lamp = await createProduct(t, s.id, { stock: 3, name: 'Pair Lamp', price: '20.00' });
    const chair = await createProduct(t, s.id, { stock: 3, name: 'Pair Chair', price: '20.00' });
    const buyers = await Promise.all(Array.from({ length: 8 }, () => buyerWithAddress()));
    const started = await Promise.all(
      buyers.map(({ buyer, addressId }, i) => {
        const lines = [
          { productId: lamp.id, quantity: 1 },
          { productId: chair.id, quantity: 1 },
        ];
        return startPayment(t, buyer, {
          items: i % 2 === 0 ? lines : lines.reverse(),
          isPickup: false,
          deliveryAddressId: addressId,
        });
      }),
    );
    for (const response of started) expect(response.statusCode).toBe(201);
    const answers = await Promise.all(
      buyers.map(({ buyer }, i) => confirm(t, buyer, started[i]?.json<PaymentJson>().paymentId ?? '')),
    );
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(3);
    const lost = answers.filter((r) => r.statusCode === 409);
    expect(lost).toHaveLength(5);
    for (const response of lost)
      expect(response.json<{ message: string }>().message).toMatch(/^Out of stock: Pair (Lamp|Chair)$/);
    expect([await stockOf(t, lamp.id), await stockOf(t, chair.id)]).toEqual([0, 0]);
    const items = await t.database.db
      .select({ quantity: orderItems.quantity })
      .from(orderItems)
      .innerJoin(orders, eq(orders.id, orderItems.orderId))
      .where(eq(orders.sellerId, s.id));
    expect(items).toHaveLength(6);
  }, 60_000);

  it('keeps the text of an address deleted between payment and order, without linking it', async () => {
    const { buyer, addressId } = await buyerWithAddress();
    const s = await seller();
    const product = await createProduct(t, s.id, { stock: 2 });
    const started = await startPayment(t, buyer, {
      items: [{ productId: product.id, quantity: 1 }],
      isPickup: false,
      deliveryAddressId: addressId,
    });
    const { paymentId } = started.json<PaymentJson>();
    // The seller's pickup address existed when the payment started.
    expect(await t.database.db.select().from(addresses).where(eq(addresses.userId, s.id))).toHaveLength(1);
    await t.database.db.delete(addresses).where(eq(addresses.id, addressId));
    await t.database.db.delete(addresses).where(eq(addresses.userId, s.id));
    const confirmed = await confirm(t, buyer, paymentId);
    expect(confirmed.statusCode).toBe(200);
    const [order] = confirmed.json<{ orders: OrderJson[] }>().orders;
    expect(order).toMatchObject({ pickupAddress: null, deliveryAddress: expect.stringContaining(',') });
    const [row] = await t.database.db.select().from(orders).where(eq(orders.paymentId, paymentId));
    expect(row).toMatchObject({ deliveryAddressId: null, pickupAddressId: null });
  });
});

describe('GET /api/commission-settings', () => {
  it('answers the 8 fields as strings to anyone', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/commission-settings' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      baseCommissionRate: '0.1000',
      minCommissionRate: '0.0200',
      salesPriceTierAmount: '500.00',
      salesPriceTierReduction: '0.0100',
      deliveryFeeTierAmount: '200.00',
      deliveryFeeTierReduction: '0.0100',
      loyaltyTierAmount: '1000.00',
      loyaltyTierReduction: '0.0100',
    });
  });
});
