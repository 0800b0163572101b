import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import {
  as,
  createTestApp,
  createUser,
  signedInAs,
  type TestApp,
  type TestUser,
} from '../../testing/test-app';
import { buy, createAddress, createProduct } from '../../testing/commerce';
import { listenOnFreePort, openEventStream, type EventStreamClient } from '../../testing/event-stream';
import { liveEvents, users } from '../../db/schema';
import { publishLiveEvents } from '../../platform/live-events';

/**
 * Nothing lost live (docs/rules/live-updates.md, Live updates): GET /api/auth/user tells the page the
 * live cursor, and the page's first stream (`?since=`) starts with every event after it that its
 * user may receive, so an event sent while the page loads is not lost. The expected arrival a
 * driver sets is the `order.arrival` event, for the order's parties only.
 */

let t: TestApp;
let baseUrl: string;
const streams: EventStreamClient[] = [];

beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await listenOnFreePort(t.app);
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  for (const stream of streams.splice(0)) stream.close();
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

async function streamOf(user: TestUser, options: { since?: string; lastEventId?: string } = {}) {
  const stream = await openEventStream(baseUrl, user.cookie, options);
  streams.push(stream);
  expect(stream.status).toBe(200);
  return stream;
}

/** What the page reads first: who is signed in, with the live cursor. */
async function liveCursorOf(user: TestUser): Promise<number> {
  const answer = await as(t, user, { method: 'GET', url: '/api/auth/user' });
  expect(answer.statusCode, answer.body).toBe(200);
  const body = answer.json<{ id: string; liveCursor: number }>();
  expect(body.id).toBe(user.id);
  expect(Number.isInteger(body.liveCursor)).toBe(true);
  return body.liveCursor;
}

const message = (user: TestUser, productId: string, content: string) =>
  as(t, user, { method: 'POST', url: '/api/product-messages', payload: { productId, content } });

describe("a page's first stream", () => {
  it('starts with the events after the cursor its user may receive: not earlier ones, not anyone else’s', async () => {
    const buyer = await signedInAs(t, 'buyer', { firstName: 'Bea', lastName: 'Buyer' });
    const stranger = await signedInAs(t, 'buyer');
    const seller = await signedInAs(t, 'seller');
    const product = await createProduct(t, seller.id, { name: 'Oak Shelf' });
    expect((await message(buyer, product.id, 'Before the page')).statusCode).toBe(201);

    // The seller's page reads its data; then, before its stream is open, messages arrive.
    const cursor = await liveCursorOf(seller);
    expect((await message(buyer, product.id, 'While the page loads')).statusCode).toBe(201);
    expect((await message(stranger, product.id, 'Another buyer asks')).statusCode).toBe(201);
    // An event for someone else entirely is published meanwhile too.
    await publishLiveEvents(t.database.db, [
      { event: { type: 'account.changed', userId: buyer.id }, audience: [buyer.id] },
    ]);

    const stream = await streamOf(seller, { since: String(cursor) });
    await stream.waitUntil(() => stream.events.length >= 2, 'the two messages sent while loading');
    expect(stream.events.map((event) => event.data)).toEqual([
      expect.objectContaining({ type: 'product.message', senderId: buyer.id }),
      expect.objectContaining({ type: 'product.message', senderId: stranger.id }),
    ]);
    expect(stream.events.every((event) => Number(event.id) > cursor)).toBe(true);

    // The buyer's page from the same cursor gets their own thread's message and the account
    // change, never the other buyer's conversation with the seller.
    const buyerStream = await streamOf(buyer, { since: String(cursor) });
    await buyerStream.waitUntil(() => buyerStream.events.length >= 2, "the buyer's two events");
    expect(buyerStream.events.map((event) => event.data)).toEqual([
      expect.objectContaining({ type: 'product.message', buyerId: buyer.id }),
      { type: 'account.changed', userId: buyer.id },
    ]);

    // And it goes live: a later message arrives on the same stream once.
    expect((await message(buyer, product.id, 'After')).statusCode).toBe(201);
    await stream.waitUntil(() => stream.events.length >= 3, 'the next message');
    const ids = stream.events.map((event) => event.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('starts after Last-Event-ID when a reconnect sends both', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const seller = await signedInAs(t, 'seller');
    const product = await createProduct(t, seller.id);
    const cursor = await liveCursorOf(seller);
    await message(buyer, product.id, 'One');
    const first = await streamOf(seller, { since: String(cursor) });
    const seen = await first.waitFor((event) => event.type === 'product.message');
    first.close();
    await message(buyer, product.id, 'Two');
    if (seen.id === undefined) throw new Error('an event without an id');

    const again = await streamOf(seller, { since: String(cursor), lastEventId: seen.id });
    await again.waitFor(() => true);
    expect(again.events).toHaveLength(1);
    expect(Number(again.events[0]?.id)).toBeGreaterThan(Number(seen.id));
  });

  it('falls back cleanly on a cursor outside the replay window, and refuses one that is not an id with a 400', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const seller = await signedInAs(t, 'seller');
    const product = await createProduct(t, seller.id);
    // An event older than the hour the server keeps for replays is never sent again.
    const cursor = await liveCursorOf(seller);
    await message(buyer, product.id, 'Long ago');
    await t.database.db
      .update(liveEvents)
      .set({ createdAt: sql`now() - interval '2 hours'` })
      .where(sql`${liveEvents.id} > ${cursor}`);
    await message(buyer, product.id, 'Recent');

    const newest = await liveCursorOf(seller);

    const fromZero = await streamOf(seller, { since: '0' });
    await fromZero.waitFor(() => true);
    expect(fromZero.events.map((event) => event.id)).toEqual([String(newest)]);

    // A cursor ahead of every event (another database's, say) replays nothing and goes live.
    const ahead = await streamOf(seller, { since: '999999999999999' });
    await message(buyer, product.id, 'Live again');
    await ahead.waitFor(() => true);
    expect(ahead.events).toHaveLength(1);

    // The plain (non-stream) answer replays from the cursor too.
    const plain = await as(t, seller, { method: 'GET', url: `/api/events?since=${cursor}` });
    expect(plain.statusCode).toBe(200);
    expect(plain.body.match(/^id: /gm)).toHaveLength(2);

    for (const bad of ['abc', '-1', '1.5', '1234567890123456', '', '1e3']) {
      const answer = await as(t, seller, {
        method: 'GET',
        url: `/api/events?since=${encodeURIComponent(bad)}`,
      });
      expect(answer.statusCode, `since=${bad}`).toBe(400);
      expect(answer.json<{ fields?: Record<string, string> }>().fields).toHaveProperty('since');
    }
    const twice = await as(t, seller, { method: 'GET', url: '/api/events?since=1&since=2' });
    expect(twice.statusCode).toBe(400);
    expect((await as(t, undefined, { method: 'GET', url: '/api/events?since=1' })).statusCode).toBe(401);
  });

  it("replays a user's own events even when many of other people's came after the cursor", async () => {
    const buyer = await signedInAs(t, 'buyer');
    const seller = await signedInAs(t, 'seller');
    const product = await createProduct(t, seller.id);
    const cursor = await liveCursorOf(seller);
    const someoneElse = await createUser(t, { roles: ['buyer'] });
    await publishLiveEvents(
      t.database.db,
      Array.from({ length: 250 }, () => ({
        event: { type: 'account.changed' as const, userId: someoneElse.id },
        audience: [someoneElse.id],
      })),
    );
    await message(buyer, product.id, 'After a busy minute');
    const stream = await streamOf(seller, { since: String(cursor) });
    await stream.waitFor((event) => event.type === 'product.message');
    expect(stream.events).toHaveLength(1);
  });
});

describe('the expected arrival', () => {
  it("tells the order's buyer and seller (and its driver) when the driver sets it, and nobody else", async () => {
    const buyer = await signedInAs(t, 'buyer');
    const seller = await signedInAs(t, 'seller');
    const stranger = await signedInAs(t, 'buyer');
    const driver = await signedInAs(t, 'driver');
    await t.database.db
      .update(users)
      .set({
        vehicleImageUrl: '/objects/uploads/vehicle',
        licenseImageUrl: '/objects/uploads/license',
        isVerified: true,
      })
      .where(eq(users.id, driver.id));
    const address = await createAddress(t, buyer.id);
    await createAddress(t, seller.id);
    const product = await createProduct(t, seller.id);
    const [order] = await buy(t, buyer, {
      items: [{ productId: product.id, quantity: 1 }],
      isPickup: false,
      deliveryAddressId: address.id,
    });
    if (!order) throw new Error('no order');
    const accepted = await as(t, driver, { method: 'POST', url: `/api/orders/${order.id}/assign` });
    expect(accepted.statusCode, accepted.body).toBe(200);

    const cursor = String(await liveCursorOf(buyer));
    const buyerStream = await streamOf(buyer, { since: cursor });
    const sellerStream = await streamOf(seller, { since: cursor });
    const driverStream = await streamOf(driver, { since: cursor });
    const strangerStream = await streamOf(stranger, { since: cursor });

    const at = new Date(Date.now() + 3 * 60 * 60 * 1000);
    at.setUTCSeconds(0, 0);
    const set = await as(t, driver, {
      method: 'PATCH',
      url: `/api/orders/${order.id}/estimated-time`,
      payload: { estimatedDeliveryTime: at.toISOString() },
    });
    expect(set.statusCode, set.body).toBe(200);
    const expected = {
      type: 'order.arrival',
      orderId: order.id,
      orderNumber: order.orderNumber,
      buyerId: buyer.id,
      estimatedDeliveryTime: at.toISOString(),
    };
    expect((await buyerStream.waitFor((event) => event.type === 'order.arrival', 2_000)).data).toEqual(
      expected,
    );
    expect((await sellerStream.waitFor((event) => event.type === 'order.arrival', 2_000)).data).toEqual(
      expected,
    );
    await driverStream.waitFor((event) => event.type === 'order.arrival', 2_000);

    // A change refused (in the past) tells nobody anything.
    const refused = await as(t, driver, {
      method: 'PATCH',
      url: `/api/orders/${order.id}/estimated-time`,
      payload: { estimatedDeliveryTime: new Date(Date.now() - 60_000).toISOString() },
    });
    expect(refused.statusCode).toBe(400);

    // The stranger's first event is their own conversation's.
    await message(stranger, product.id, 'Mine');
    await strangerStream.waitFor(() => true);
    expect(strangerStream.events.map((event) => event.data.type)).toEqual(['product.message']);
    expect(buyerStream.events.filter((event) => event.data.type === 'order.arrival')).toHaveLength(1);
  });
});
