import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import { buy, createAddress, createProduct } from '../../testing/commerce';
import { listenOnFreePort, openEventStream, type EventStreamClient } from '../../testing/event-stream';
import { users } from '../../db/schema';

/**
 * Live updates (docs/rules/live-updates.md, Live updates) through a real socket: GET /api/events tells
 * each signed-in user of their orders' changes, new messages for them and, for drivers who may take
 * them, new available orders; nobody else ever hears of them.
 */

let t: TestApp;
let baseUrl: string;
const streams: EventStreamClient[] = [];

beforeAll(async () => {
  t = await createTestApp({ liveHeartbeatMs: 300 });
  baseUrl = await listenOnFreePort(t.app);
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  for (const stream of streams.splice(0)) stream.close();
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

async function streamOf(user: TestUser, options: { lastEventId?: string } = {}) {
  const stream = await openEventStream(baseUrl, user.cookie, options);
  streams.push(stream);
  expect(stream.status).toBe(200);
  return stream;
}

const post = (user: TestUser, url: string, payload: Record<string, unknown>) =>
  as(t, user, { method: 'POST', url, payload });

async function approveDriver(user: TestUser, withTrailer: boolean) {
  await t.database.db
    .update(users)
    .set({
      vehicleImageUrl: '/objects/uploads/vehicle',
      licenseImageUrl: '/objects/uploads/license',
      trailerImageUrl: withTrailer ? '/objects/uploads/trailer' : null,
      isVerified: true,
    })
    .where(eq(users.id, user.id));
}

describe('the event stream', () => {
  it('tells the buyer and the seller of a new product message at once, and another buyer nothing', async () => {
    const buyer = await signedInAs(t, 'buyer', { firstName: 'Bea', lastName: 'Buyer' });
    const otherBuyer = await signedInAs(t, 'buyer');
    const seller = await signedInAs(t, 'seller');
    const product = await createProduct(t, seller.id, { name: 'Maple Desk' });
    const sellerStream = await streamOf(seller);
    const buyerStream = await streamOf(buyer);
    const otherStream = await streamOf(otherBuyer);

    const sent = await post(buyer, '/api/product-messages', {
      productId: product.id,
      content: 'Is it solid maple?',
    });
    expect(sent.statusCode).toBe(201);
    const received = await sellerStream.waitFor((event) => event.type === 'product.message', 2_000);
    expect(received.data).toEqual({
      type: 'product.message',
      productId: product.id,
      productName: 'Maple Desk',
      buyerId: buyer.id,
      sellerId: seller.id,
      senderId: buyer.id,
      senderName: 'Bea Buyer',
    });
    expect(received.id).toMatch(/^\d+$/);
    // The event names the conversation, never what was said.
    expect(JSON.stringify(received.data)).not.toContain('maple?');
    await buyerStream.waitFor((event) => event.type === 'product.message');

    // The other buyer's own conversation is the first thing their stream hears of.
    await post(otherBuyer, '/api/product-messages', { productId: product.id, content: 'Mine' });
    await otherStream.waitFor((event) => event.type === 'product.message');
    expect(otherStream.events.map((event) => event.data)).toEqual([
      expect.objectContaining({ type: 'product.message', buyerId: otherBuyer.id }),
    ]);
  });

  it("tells an order's parties of its messages and status changes, and nobody else", async () => {
    const buyer = await signedInAs(t, 'buyer');
    const seller = await signedInAs(t, 'seller');
    const stranger = await signedInAs(t, 'buyer');
    const address = await createAddress(t, buyer.id);
    await createAddress(t, seller.id);
    const product = await createProduct(t, seller.id, { sellerDelivery: true });
    const buyerStream = await streamOf(buyer);
    const sellerStream = await streamOf(seller);
    const strangerStream = await streamOf(stranger);

    const [order] = await buy(t, buyer, {
      items: [{ productId: product.id, quantity: 1 }],
      isPickup: false,
      deliveryAddressId: address.id,
    });
    if (!order) throw new Error('no order');
    // Placing it: the seller hears of the new order.
    const placed = await sellerStream.waitFor((event) => event.type === 'order.changed');
    expect(placed.data).toMatchObject({ orderId: order.id, status: 'pending', actorId: buyer.id });

    await post(seller, '/api/messages', { orderId: order.id, content: 'Packing it now' });
    const message = await buyerStream.waitFor((event) => event.type === 'order.message');
    expect(message.data).toMatchObject({
      orderId: order.id,
      orderNumber: order.orderNumber,
      senderId: seller.id,
    });

    const moved = await as(t, seller, {
      method: 'PATCH',
      url: `/api/orders/${order.id}/status`,
      payload: { status: 'in-transit' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const change = await buyerStream.waitFor(
      (event) => event.type === 'order.changed' && event.status === 'in-transit',
    );
    expect(change.data).toMatchObject({ orderId: order.id, actorId: seller.id });

    // The stranger's first event is about their own order.
    await post(stranger, '/api/product-messages', { productId: product.id, content: 'Hello' });
    await strangerStream.waitFor(() => true);
    expect(strangerStream.events.map((event) => event.data.type)).toEqual(['product.message']);
  });

  it('tells drivers who may take a new order about it: verified ones, with a trailer for a trailer order', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const seller = await signedInAs(t, 'seller');
    const driver = await signedInAs(t, 'driver');
    const trailerDriver = await signedInAs(t, 'driver');
    const unverified = await signedInAs(t, 'driver');
    await approveDriver(driver, false);
    await approveDriver(trailerDriver, true);
    const address = await createAddress(t, buyer.id);
    await createAddress(t, seller.id);
    const plain = await createProduct(t, seller.id);
    const trailer = await createProduct(t, seller.id, { requiresTrailer: true });
    const driverStream = await streamOf(driver);
    const trailerStream = await streamOf(trailerDriver);
    const unverifiedStream = await streamOf(unverified);
    const buyerStream = await streamOf(buyer);

    const [trailerOrder] = await buy(t, buyer, {
      items: [{ productId: trailer.id, quantity: 1 }],
      isPickup: false,
      deliveryAddressId: address.id,
    });
    const [plainOrder] = await buy(t, buyer, {
      items: [{ productId: plain.id, quantity: 1 }],
      isPickup: false,
      deliveryAddressId: address.id,
    });
    if (!trailerOrder || !plainOrder) throw new Error('no order');

    await trailerStream.waitFor(
      (event) => event.type === 'offers.changed' && event.orderId === trailerOrder.id,
    );
    await trailerStream.waitFor(
      (event) => event.type === 'offers.changed' && event.orderId === plainOrder.id,
    );
    const offer = await driverStream.waitFor((event) => event.type === 'offers.changed');
    // Without a trailer image, the trailer order (placed first) is never offered.
    expect(offer.data).toEqual({
      type: 'offers.changed',
      orderId: plainOrder.id,
      orderNumber: plainOrder.orderNumber,
      isNew: true,
    });

    // Taking the order: the others learn it is gone, the buyer that a driver has it.
    const accepted = await as(t, trailerDriver, {
      method: 'POST',
      url: `/api/orders/${plainOrder.id}/assign`,
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const gone = await driverStream.waitFor((event) => event.type === 'offers.changed' && !event.isNew);
    expect(gone.data).toMatchObject({ orderId: plainOrder.id });
    await buyerStream.waitFor((event) => event.type === 'order.changed' && event.status === 'assigned');
    expect(buyerStream.events.some((event) => event.data.type === 'offers.changed')).toBe(false);

    // The unverified driver heard nothing of any offer; their first event is a message of their own.
    await post(unverified, '/api/product-messages', { productId: plain.id, content: 'Hi' });
    await unverifiedStream.waitFor(() => true);
    expect(unverifiedStream.events.map((event) => event.data.type)).toEqual(['product.message']);
  });

  it('sends what was missed after Last-Event-ID to a browser that reconnects, and only what its user may see', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const seller = await signedInAs(t, 'seller');
    const stranger = await signedInAs(t, 'buyer');
    const product = await createProduct(t, seller.id);
    const first = await streamOf(seller);
    await post(buyer, '/api/product-messages', { productId: product.id, content: 'One' });
    const seen = await first.waitFor((event) => event.type === 'product.message');
    first.close();

    await post(buyer, '/api/product-messages', { productId: product.id, content: 'Two' });
    await post(stranger, '/api/product-messages', { productId: product.id, content: 'Not for you' });
    await post(buyer, '/api/product-messages', { productId: product.id, content: 'Three' });

    const again = await streamOf(seller, { lastEventId: seen.id });
    await again.waitUntil(() => again.events.length >= 3, 'three missed events');
    expect(again.events.map((event) => event.data)).toEqual([
      expect.objectContaining({ senderId: buyer.id }),
      expect.objectContaining({ senderId: stranger.id }),
      expect.objectContaining({ senderId: buyer.id }),
    ]);
    expect(again.events.map((event) => Number(event.id))).toEqual(
      [...again.events.map((event) => Number(event.id))].sort((a, b) => a - b),
    );
    expect(again.events.every((event) => Number(event.id) > Number(seen.id))).toBe(true);

    // The stranger's reconnect from the same point replays only their own conversation.
    const strangers = await streamOf(stranger, { lastEventId: seen.id });
    await strangers.waitFor(() => true);
    expect(strangers.events.map((event) => event.data)).toEqual([
      expect.objectContaining({ type: 'product.message', buyerId: stranger.id }),
    ]);
  });

  it('beats while open and ends once the session is signed out', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const stream = await streamOf(buyer);
    expect(stream.contentType).toBe('text/event-stream; charset=utf-8');
    await stream.waitUntil(() => stream.comments.includes('heartbeat'), 'a heartbeat');
    const signedOut = await as(t, buyer, { method: 'POST', url: '/api/logout' });
    expect(signedOut.statusCode).toBeLessThan(400);
    await stream.waitUntil(() => stream.ended(), 'the stream to end');
  });

  it('answers at once, without holding the connection, a caller that does not ask for a stream', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const seller = await signedInAs(t, 'seller');
    const product = await createProduct(t, seller.id);
    const plain = await as(t, seller, { method: 'GET', url: '/api/events' });
    expect(plain.statusCode).toBe(200);
    expect(plain.body).toBe('retry: 3000\n\n');
    await post(buyer, '/api/product-messages', { productId: product.id, content: 'Hi' });
    const missed = await as(t, seller, {
      method: 'GET',
      url: '/api/events',
      headers: { 'last-event-id': '0' },
    });
    expect(missed.body).toContain(`"productId":"${product.id}"`);
    expect((await as(t, undefined, { method: 'GET', url: '/api/events' })).statusCode).toBe(401);
  });
});
