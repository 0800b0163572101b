import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import {
  buy,
  createAddress,
  createProduct,
  paymentRow,
  refundsOf,
  stockOf,
  type OrderJson,
} from '../../testing/commerce';
import { orders } from '../../db/schema';

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

interface Scene {
  buyer: TestUser;
  seller: TestUser;
  driver: TestUser;
  stranger: TestUser;
  admin: TestUser;
  order: OrderJson;
  productId: string;
}

/** A buyer's paid order of 2 units from a seller, with a driver assigned to it. */
async function scene(options: { assignDriver?: boolean } = {}): Promise<Scene> {
  const buyer = await signedInAs(t, 'buyer');
  const seller = await signedInAs(t, 'seller');
  const driver = await signedInAs(t, 'driver', { isVerified: true });
  const stranger = await signedInAs(t, 'seller');
  const admin = await signedInAs(t, 'admin');
  const address = await createAddress(t, buyer.id);
  await createAddress(t, seller.id);
  const product = await createProduct(t, seller.id, {
    price: '35.00',
    stock: 5,
    name: 'Oak Stool',
    description: 'Solid oak',
  });
  const [order] = await buy(t, buyer, {
    items: [{ productId: product.id, quantity: 2 }],
    isPickup: false,
    deliveryAddressId: address.id,
  });
  if (!order) throw new Error('no order');
  if (options.assignDriver !== false)
    await t.database.db.update(orders).set({ driverId: driver.id }).where(eq(orders.id, order.id));
  return { buyer, seller, driver, stranger, admin, order, productId: product.id };
}

const get = (user: TestUser, url: string) => as(t, user, { method: 'GET', url });
const cancel = (user: TestUser, id: string) =>
  as(t, user, { method: 'POST', url: `/api/orders/${id}/cancel` });

describe('who sees an order (docs/rules/accounts.md, Roles and permissions)', () => {
  it('lets its buyer, seller, driver and admins see it, and answers 404 to anyone else', async () => {
    const s = await scene();
    for (const user of [s.buyer, s.seller, s.driver, s.admin]) {
      const list = await get(user, '/api/orders');
      expect(list.json<OrderJson[]>().map((o) => o.id)).toContain(s.order.id);
      expect((await get(user, `/api/orders/${s.order.id}`)).statusCode).toBe(200);
    }
    expect((await get(s.stranger, '/api/orders')).json<OrderJson[]>().map((o) => o.id)).not.toContain(
      s.order.id,
    );
    for (const url of [
      `/api/orders/${s.order.id}`,
      `/api/orders/${s.order.id}/items`,
      `/api/orders/${s.order.id}/events`,
    ]) {
      const response = await get(s.stranger, url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toMatchObject({ message: 'Order not found' });
    }
    expect((await cancel(s.stranger, s.order.id)).statusCode).toBe(404);
    expect((await get(s.buyer, '/api/orders/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await get(s.buyer, '/api/orders/not-a-uuid')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/orders' })).statusCode).toBe(401);
  });

  it('answers 404 to another buyer, another seller and a driver not assigned to it, and changes nothing', async () => {
    const s = await scene();
    const outsiders = {
      'another buyer': await signedInAs(t, 'buyer'),
      'another seller': await signedInAs(t, 'seller'),
      'a driver not assigned': await signedInAs(t, 'driver', { isVerified: true }),
    };
    const notFound = { message: 'Order not found', code: 'not_found', requestId: expect.any(String) };
    for (const [who, user] of Object.entries(outsiders)) {
      for (const url of [`/api/orders/${s.order.id}/items`, `/api/orders/${s.order.id}/events`]) {
        const response = await get(user, url);
        expect(response.statusCode, `${who}: ${url}`).toBe(404);
        expect(response.json(), `${who}: ${url}`).toEqual(notFound);
      }
      const cancelled = await cancel(user, s.order.id);
      expect(cancelled.statusCode, `${who}: cancel`).toBe(404);
      expect(cancelled.json(), `${who}: cancel`).toEqual(notFound);
    }
    // The order is as it was: still pending, its stock still taken, nothing refunded.
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, s.order.id));
    expect(row?.status).toBe('pending');
    expect(await stockOf(t, s.productId)).toBe(3);
    expect(await refundsOf(t, row?.paymentId ?? '')).toEqual([]);
    const events = (await get(s.buyer, `/api/orders/${s.order.id}/events`)).json<Record<string, unknown>[]>();
    expect(events.map((event) => event.toStatus)).toEqual(['pending']);
  });

  it('filters by link with as= and lists newest first', async () => {
    const s = await scene();
    await createAddress(t, s.stranger.id);
    const product = await createProduct(t, s.stranger.id, { price: '5.00' });
    const address = await createAddress(t, s.seller.id, false);
    // The seller buys from another seller (as a buyer): that order is theirs as buyer only.
    const [own] = await buy(t, s.seller, {
      items: [{ productId: product.id, quantity: 1 }],
      isPickup: false,
      deliveryAddressId: address.id,
    });
    const asSeller = (await get(s.seller, '/api/orders?as=seller')).json<OrderJson[]>().map((o) => o.id);
    const asBuyer = (await get(s.seller, '/api/orders?as=buyer')).json<OrderJson[]>().map((o) => o.id);
    const either = (await get(s.seller, '/api/orders')).json<OrderJson[]>().map((o) => o.id);
    expect(asSeller).toEqual([s.order.id]);
    expect(asBuyer).toEqual([own?.id]);
    expect(either).toEqual([own?.id, s.order.id]);
    expect((await get(s.buyer, '/api/orders?as=driver')).json()).toEqual([]);
    expect((await get(s.driver, '/api/orders?as=driver')).json<OrderJson[]>().map((o) => o.id)).toEqual([
      s.order.id,
    ]);
    const adminAll = (await get(s.admin, '/api/orders?limit=500')).json<OrderJson[]>().map((o) => o.id);
    expect(adminAll).toEqual(expect.arrayContaining([own?.id, s.order.id]));
    expect((await get(s.admin, '/api/orders?as=buyer')).json()).toEqual([]);
    expect((await get(s.buyer, '/api/orders?as=everyone')).statusCode).toBe(400);
  });

  it('never shows the driver item prices or anything but their own earnings', async () => {
    const s = await scene();
    const forDriver = (await get(s.driver, `/api/orders/${s.order.id}`)).json<Record<string, unknown>>();
    expect(forDriver).toMatchObject({
      orderNumber: s.order.orderNumber,
      driverEarnings: '9.00',
      itemCount: 2,
    });
    for (const hidden of [
      'total',
      'productSubtotal',
      'deliveryFee',
      'sellerEarnings',
      'platformFee',
      'purchasePlatformFee',
      'deliveryPlatformFee',
      'salesCommissionRate',
      'deliveryCommissionRate',
      'seller30DaySales',
      'paymentIntentId',
    ])
      expect(forDriver, hidden).not.toHaveProperty(hidden);
    const listed = (await get(s.driver, '/api/orders')).json<Record<string, unknown>[]>()[0];
    expect(listed).not.toHaveProperty('total');
    const items = (await get(s.driver, `/api/orders/${s.order.id}/items`)).json<Record<string, unknown>[]>();
    expect(items).toEqual([
      expect.objectContaining({ productName: 'Oak Stool', productDescription: 'Solid oak', quantity: 2 }),
    ]);
    expect(items[0]).not.toHaveProperty('price');
    expect(items[0]).not.toHaveProperty('lineTotal');

    for (const user of [s.buyer, s.seller, s.admin]) {
      const full = (await get(user, `/api/orders/${s.order.id}`)).json<OrderJson>();
      expect(full).toMatchObject({
        total: '80.00',
        sellerEarnings: '63.00',
        platformFee: '8.00',
        driverEarnings: '9.00',
      });
      const priced = (await get(user, `/api/orders/${s.order.id}/items`)).json<Record<string, unknown>[]>();
      expect(priced[0]).toMatchObject({ price: '35.00', lineTotal: '70.00' });
    }
  });

  it('answers the timeline with times', async () => {
    const s = await scene();
    const events = (await get(s.buyer, `/api/orders/${s.order.id}/events`)).json<Record<string, unknown>[]>();
    expect(events).toEqual([
      expect.objectContaining({
        fromStatus: null,
        toStatus: 'pending',
        actorId: s.buyer.id,
        createdAt: expect.any(String),
      }),
    ]);
  });
});

describe('POST /api/orders/{id}/cancel (docs/rules/catalog-and-orders.md, Order lifecycle)', () => {
  it('lets the buyer cancel a pending order: refund in full, stock back, an event', async () => {
    const s = await scene();
    expect(await stockOf(t, s.productId)).toBe(3);
    const response = await cancel(s.buyer, s.order.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'cancelled', total: '80.00' });
    expect(await stockOf(t, s.productId)).toBe(5);
    const paymentId =
      (await t.database.db.select().from(orders).where(eq(orders.id, s.order.id)))[0]?.paymentId ?? '';
    expect(await paymentRow(t, paymentId)).toMatchObject({ status: 'refunded' });
    expect(await refundsOf(t, paymentId)).toEqual([
      expect.objectContaining({
        orderId: s.order.id,
        amount: '80.00',
        reason: 'Order cancelled',
        providerRefundId: expect.stringMatching(/^tre_/),
      }),
    ]);
    const events = (await get(s.buyer, `/api/orders/${s.order.id}/events`)).json<Record<string, unknown>[]>();
    expect(events.map((e) => [e.fromStatus, e.toStatus, e.actorId])).toEqual([
      [null, 'pending', s.buyer.id],
      ['pending', 'cancelled', s.buyer.id],
    ]);
    const again = await cancel(s.buyer, s.order.id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: 'This order is already cancelled.' });
    expect(await stockOf(t, s.productId)).toBe(5);
    expect(await refundsOf(t, paymentId)).toHaveLength(1);
  });

  it('refunds only the cancelled order of a payment that paid several', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const a = await signedInAs(t, 'seller');
    const b = await signedInAs(t, 'seller');
    const address = await createAddress(t, buyer.id);
    const pa = await createProduct(t, a.id, { price: '10.00' });
    const pb = await createProduct(t, b.id, { price: '20.00' });
    const made = await buy(t, buyer, {
      items: [
        { productId: pa.id, quantity: 1 },
        { productId: pb.id, quantity: 1 },
      ],
      isPickup: false,
      deliveryAddressId: address.id,
    });
    const response = await cancel(a, made[0]?.id ?? '');
    expect(response.statusCode).toBe(200);
    const paymentId =
      (
        await t.database.db
          .select()
          .from(orders)
          .where(eq(orders.id, made[0]?.id ?? ''))
      )[0]?.paymentId ?? '';
    expect(await paymentRow(t, paymentId)).toMatchObject({ status: 'partially_refunded', amount: '50.00' });
    expect((await refundsOf(t, paymentId)).map((r) => r.amount)).toEqual(['20.00']);
    expect((await get(buyer, `/api/orders/${made[1]?.id ?? ''}`)).json()).toMatchObject({
      status: 'pending',
    });
  });

  it('refuses buyer and seller once the order moved on, lets an admin cancel until finished, never the driver', async () => {
    const s = await scene();
    await t.database.db.update(orders).set({ status: 'assigned' }).where(eq(orders.id, s.order.id));
    for (const user of [s.buyer, s.seller]) {
      const response = await cancel(user, s.order.id);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({
        message:
          'This order can no longer be cancelled: it is Assigned. Only pending orders can be cancelled.',
      });
    }
    const byDriver = await cancel(s.driver, s.order.id);
    expect(byDriver.statusCode).toBe(403);
    expect(await stockOf(t, s.productId)).toBe(3);
    const byAdmin = await cancel(s.admin, s.order.id);
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json()).toMatchObject({ status: 'cancelled' });
    expect(await stockOf(t, s.productId)).toBe(5);

    const finished = await scene();
    await t.database.db.update(orders).set({ status: 'delivered' }).where(eq(orders.id, finished.order.id));
    const late = await cancel(finished.admin, finished.order.id);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ message: 'A delivered order cannot be cancelled.' });
  });

  it('cancels once when buyer and seller press at the same moment', async () => {
    const s = await scene({ assignDriver: false });
    const answers = await Promise.all([cancel(s.buyer, s.order.id), cancel(s.seller, s.order.id)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await stockOf(t, s.productId)).toBe(5);
    const events = (await get(s.buyer, `/api/orders/${s.order.id}/events`)).json<unknown[]>();
    expect(events).toHaveLength(2);
  });
});
