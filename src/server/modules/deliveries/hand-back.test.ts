import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  as,
  createTestApp,
  createUser,
  signedInAs,
  signIn,
  type TestApp,
  type TestUser,
} from '../../testing/test-app';
import { buy, createProduct, type OrderJson, type ProductOverrides } from '../../testing/commerce';
import { addresses, liveEvents, orders, outbox, users } from '../../db/schema';
import { HAND_BACK_AFTER_START, ORDER_ALREADY_TAKEN, type AvailableOrder } from '../../../domain/deliveries';
import type { OrderEvent } from '../../../domain/orders';

/**
 * A driver's mistaken step taken back (docs/rules/deliveries.md, Deliveries): an accepted order handed
 * back before Start Delivery is offered to the other drivers again, and a Decline can be undone.
 * Everyone here lives at one spot; each test reads only its own orders.
 */

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

async function placeAt(userId: string): Promise<string> {
  const [row] = await t.database.db
    .insert(addresses)
    .values({
      userId,
      addressLine1: `${crypto.randomInt(1, 9999)} Handback Rd`,
      city: 'Madison',
      state: 'WI',
      zipCode: '53703',
      latitude: '43.0731000',
      longitude: '-89.4012000',
      isPrimary: true,
    })
    .returning({ id: addresses.id });
  if (!row) throw new Error('no address');
  return row.id;
}

const fakeImage = () => `/objects/uploads/${crypto.randomUUID()}`;

/** A verified driver at the common spot, signed in. */
async function driver(options: { trailer?: boolean } = {}): Promise<TestUser> {
  const user = await createUser(t, { roles: ['buyer', 'driver'], isVerified: true });
  await t.database.db
    .update(users)
    .set({
      vehicleImageUrl: fakeImage(),
      licenseImageUrl: fakeImage(),
      trailerImageUrl: options.trailer ? fakeImage() : null,
    })
    .where(eq(users.id, user.id));
  await placeAt(user.id);
  return { ...user, cookie: await signIn(t, user.email, user.password) };
}

interface Scene {
  buyer: TestUser;
  seller: TestUser;
  order: OrderJson;
}

/** A paid order delivered by a driver, of the given lines. */
async function sceneOf(lines: { quantity: number; product?: ProductOverrides }[] = [{ quantity: 1 }]) {
  const buyer = await signedInAs(t, 'buyer');
  const seller = await signedInAs(t, 'seller');
  const deliveryAddressId = await placeAt(buyer.id);
  await placeAt(seller.id);
  const items = [];
  for (const line of lines) {
    const product = await createProduct(t, seller.id, line.product);
    items.push({ productId: product.id, quantity: line.quantity });
  }
  const [order] = await buy(t, buyer, { items, isPickup: false, deliveryAddressId });
  if (!order) throw new Error('no order');
  return { buyer, seller, order } satisfies Scene;
}

const accept = (user: TestUser, id: string) =>
  as(t, user, { method: 'POST', url: `/api/orders/${id}/assign` });
const handBack = (user: TestUser, id: string) =>
  as(t, user, { method: 'POST', url: `/api/orders/${id}/hand-back` });
const decline = (user: TestUser, id: string) =>
  as(t, user, { method: 'POST', url: `/api/orders/${id}/decline` });
const undoDecline = (user: TestUser, id: string) =>
  as(t, user, { method: 'DELETE', url: `/api/orders/${id}/decline` });
const move = (user: TestUser, id: string, status: string) =>
  as(t, user, { method: 'PATCH', url: `/api/orders/${id}/status`, payload: { status } });

async function offersOf(user: TestUser): Promise<AvailableOrder[]> {
  const response = await as(t, user, { method: 'GET', url: '/api/orders/available?limit=100' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AvailableOrder[]>();
}
const offeredIds = async (user: TestUser) => (await offersOf(user)).map((offer) => offer.id);

const rowOf = async (id: string) => {
  const [row] = await t.database.db.select().from(orders).where(eq(orders.id, id));
  return row;
};

describe('POST /api/orders/{id}/hand-back (docs/rules/deliveries.md, Deliveries)', () => {
  it('offers a handed-back order to the other drivers again, not to its driver, and the race for it still has one winner', async () => {
    const { buyer, order } = await sceneOf();
    const [first, second, third] = [await driver(), await driver(), await driver()];
    expect((await accept(first, order.id)).statusCode).toBe(200);
    // What the first driver set while holding it goes with them.
    await t.database.db
      .update(orders)
      .set({ estimatedDeliveryTime: new Date('2030-01-01T12:00:00Z'), deliveryPhotoUrl: fakeImage() })
      .where(eq(orders.id, order.id));
    expect(await offeredIds(second)).not.toContain(order.id);

    const handed = await handBack(first, order.id);
    expect(handed.statusCode, handed.body).toBe(204);
    expect(await rowOf(order.id)).toMatchObject({
      status: 'pending',
      driverId: null,
      estimatedDeliveryTime: null,
      deliveryPhotoUrl: null,
    });
    expect(await offeredIds(second)).toContain(order.id);
    expect(await offeredIds(third)).toContain(order.id);
    // Its driver does not see it again (their decline), nor hold it any more.
    expect(await offeredIds(first)).not.toContain(order.id);
    expect((await as(t, first, { method: 'GET', url: `/api/orders/${order.id}` })).statusCode).toBe(404);

    // The timeline keeps the acceptance and records the hand back with the driver.
    const events = await as(t, buyer, { method: 'GET', url: `/api/orders/${order.id}/events` });
    expect(
      events.json<OrderEvent[]>().map((event) => [event.fromStatus, event.toStatus, event.actorId]),
    ).toEqual([
      [null, 'pending', buyer.id],
      ['pending', 'assigned', first.id],
      ['assigned', 'pending', first.id],
    ]);

    // Two drivers at once: exactly one gets it.
    const answers = await Promise.all([accept(second, order.id), accept(third, order.id)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const lost = answers.find((answer) => answer.statusCode === 409);
    expect(lost?.json().message).toBe(ORDER_ALREADY_TAKEN);
    const winner = answers.find((answer) => answer.statusCode === 200)?.json<OrderJson>();
    expect([second.id, third.id]).toContain(winner?.driverId);
    expect(await rowOf(order.id)).toMatchObject({ status: 'assigned', driverId: winner?.driverId });
  });

  it('tells the buyer and the seller of the change and the drivers of a new offer, without a second receipt', async () => {
    const { buyer, seller, order } = await sceneOf();
    const me = await driver();
    expect((await accept(me, order.id)).statusCode).toBe(200);
    await t.app.runNotifications();
    expect((await handBack(me, order.id)).statusCode).toBe(204);

    const published = await t.database.db
      .select()
      .from(liveEvents)
      .where(sql`${liveEvents.data}->>'orderId' = ${order.id}`)
      .orderBy(liveEvents.id);
    const last = published.slice(-2);
    expect(last.map((row) => row.data)).toEqual([
      {
        type: 'order.changed',
        orderId: order.id,
        orderNumber: order.orderNumber,
        status: 'pending',
        from: 'assigned',
        actorId: me.id,
        buyerId: buyer.id,
        sellerId: seller.id,
      },
      {
        type: 'offers.changed',
        orderId: order.id,
        orderNumber: order.orderNumber,
        isNew: true,
      },
    ]);
    expect([...(last[0]?.audience ?? [])].sort()).toEqual([buyer.id, seller.id].sort());
    expect(last[1]).toMatchObject({ forDrivers: true, audience: [] });

    // The receipt and the seller's "new order" went out once, when it was placed.
    await t.app.runNotifications();
    const mail = await t.database.db
      .select({ kind: outbox.kind })
      .from(outbox)
      .where(and(eq(outbox.channel, 'mail'), inArray(outbox.userId, [buyer.id, seller.id])));
    expect(mail.filter((row) => row.kind === 'order_receipt')).toHaveLength(1);
    expect(mail.filter((row) => row.kind === 'order_new_for_seller')).toHaveLength(1);
  });

  it('refuses anyone but its driver with 404 and a started delivery with 409, changing nothing', async () => {
    const { buyer, seller, order } = await sceneOf();
    const me = await driver();
    expect((await accept(me, order.id)).statusCode).toBe(200);

    for (const user of [await driver(), await signedInAs(t, 'admin')]) {
      const refused = await handBack(user, order.id);
      expect(refused.statusCode).toBe(404);
      expect(refused.json().message).toBe('Order not found');
    }
    expect((await handBack(me, crypto.randomUUID())).statusCode).toBe(404);
    // The buyer and the seller lack the driver role altogether, as for every driver's call.
    expect((await handBack(buyer, order.id)).statusCode).toBe(403);
    expect((await handBack(seller, order.id)).statusCode).toBe(403);
    expect(await rowOf(order.id)).toMatchObject({ status: 'assigned', driverId: me.id });

    expect((await move(me, order.id, 'in-transit')).statusCode).toBe(200);
    const started = await handBack(me, order.id);
    expect(started.statusCode).toBe(409);
    expect(started.json().message).toBe(HAND_BACK_AFTER_START);
    expect(await rowOf(order.id)).toMatchObject({ status: 'in-transit', driverId: me.id });
  });

  it('answers a second tap with 404: the order is no longer theirs', async () => {
    const { order } = await sceneOf();
    const me = await driver();
    expect((await accept(me, order.id)).statusCode).toBe(200);
    const taps = await Promise.all([handBack(me, order.id), handBack(me, order.id)]);
    expect(taps.map((tap) => tap.statusCode).sort()).toEqual([204, 404]);
    const events = await as(t, await signedInAs(t, 'admin'), {
      method: 'GET',
      url: `/api/orders/${order.id}/events`,
    });
    expect(events.json<OrderEvent[]>().filter((event) => event.fromStatus === 'assigned')).toHaveLength(1);
  });
});

describe('DELETE /api/orders/{id}/decline (docs/rules/deliveries.md, Deliveries)', () => {
  it("brings a declined order back to that driver's list, and is idempotent", async () => {
    const { order } = await sceneOf();
    const me = await driver();
    expect((await decline(me, order.id)).statusCode).toBe(204);
    expect(await offeredIds(me)).not.toContain(order.id);

    const undone = await undoDecline(me, order.id);
    expect(undone.statusCode, undone.body).toBe(204);
    expect(undone.body).toBe('');
    expect(await offeredIds(me)).toContain(order.id);
    expect((await undoDecline(me, order.id)).statusCode).toBe(204);
    expect(await offeredIds(me)).toContain(order.id);

    // A driver who handed an order back may take their decline back too.
    expect((await accept(me, order.id)).statusCode).toBe(200);
    expect((await handBack(me, order.id)).statusCode).toBe(204);
    expect(await offeredIds(me)).not.toContain(order.id);
    expect((await undoDecline(me, order.id)).statusCode).toBe(204);
    expect(await offeredIds(me)).toContain(order.id);
  });

  it('answers 404 for an order that is not a driver job for them', async () => {
    const trailer = await sceneOf([{ quantity: 1, product: { requiresTrailer: true } }]);
    const sellerDelivers = await sceneOf([
      { quantity: 1, product: { sellerDelivery: true, sellerDeliveryFee: '5.00' } },
    ]);
    const me = await driver();
    expect((await undoDecline(me, trailer.order.id)).statusCode).toBe(404);
    expect((await undoDecline(me, sellerDelivers.order.id)).statusCode).toBe(404);
    expect((await undoDecline(me, crypto.randomUUID())).statusCode).toBe(404);
    expect((await undoDecline(await driver({ trailer: true }), trailer.order.id)).statusCode).toBe(204);
  });
});

describe('What an offer shows (docs/rules/deliveries.md, Deliveries)', () => {
  it('lists the items with their names and counts, most units first, never a price', async () => {
    const { order } = await sceneOf([
      { quantity: 1, product: { name: 'Walnut Chair', price: '120.00' } },
      { quantity: 2, product: { name: 'Oak Table', price: '350.00' } },
    ]);
    const offer = (await offersOf(await driver())).find((candidate) => candidate.id === order.id);
    expect(offer).toMatchObject({
      itemCount: 3,
      items: [
        { name: 'Oak Table', quantity: 2 },
        { name: 'Walnut Chair', quantity: 1 },
      ],
    });
    expect(Object.keys(offer?.items[0] ?? {}).sort()).toEqual(['name', 'quantity']);
    // Every value of the offer, as a number where it reads as one: a price, a line total (700) or the
    // goods' total (820) must not be among them. The offer's time and ids are values too, so a
    // search of its text for "120" would fail whenever it was made at a .120 millisecond.
    const values = leaves(offer).map(Number);
    for (const amount of [120, 350, 700, 820]) expect(values).not.toContain(amount);
    expect(JSON.stringify(offer)).not.toMatch(/price|total|subtotal/i);
  });
});

function leaves(value: unknown): unknown[] {
  if (value === null || typeof value !== 'object') return [value];
  return Object.values(value).flatMap(leaves);
}
