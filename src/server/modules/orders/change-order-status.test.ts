import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import { buy, createAddress, createProduct, openEveryDay, type OrderJson } from '../../testing/commerce';
import { orders } from '../../db/schema';
import { TRAILER_PHOTO_REQUIRED } from '../../../domain/orders';
import { moveOrder } from '../../testing/payout-scenes';

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
  order: OrderJson;
}

async function orderOf(
  kind: 'pickup' | 'seller' | 'driver',
  options: { trailer?: boolean } = {},
): Promise<Scene> {
  const buyer = await signedInAs(t, 'buyer');
  const seller = await signedInAs(t, 'seller');
  const address = await createAddress(t, buyer.id);
  await createAddress(t, seller.id);
  const product = await createProduct(t, seller.id, {
    offerPickup: kind === 'pickup',
    sellerDelivery: kind === 'seller',
    sellerDeliveryFee: kind === 'seller' ? '5.00' : null,
    requiresTrailer: options.trailer ?? false,
  });
  let scheduledPickupTimes: Record<string, string> | undefined;
  if (kind === 'pickup') {
    await openEveryDay(t, seller.id);
    const slots = await as(t, buyer, { method: 'GET', url: `/api/availability/slots/${seller.id}` });
    // The second slot: the first can come within the hour (and be refused) while the test runs.
    const offered = slots.json<{ datetime: string }[]>();
    const slot = offered[1] ?? offered[0];
    if (!slot) throw new Error('no pickup slot');
    scheduledPickupTimes = { [seller.id]: slot.datetime };
  }
  const [order] = await buy(t, buyer, {
    items: [{ productId: product.id, quantity: 1 }],
    isPickup: kind === 'pickup',
    ...(kind === 'pickup' ? { scheduledPickupTimes } : { deliveryAddressId: address.id }),
  });
  if (!order) throw new Error('no order');
  return { buyer, seller, order };
}

/** A status step; Mark Delivered without proof, which the proof tests cover (deliver-order.test.ts). */
const move = (user: TestUser, id: string, status: string) => moveOrder(t, user, id, status);

async function timeline(user: TestUser, orderId: string) {
  const response = await as(t, user, { method: 'GET', url: `/api/orders/${orderId}/events` });
  return response.json<
    { fromStatus: string | null; toStatus: string; actorId: string; createdAt: string }[]
  >();
}

describe('a pickup order', () => {
  it('goes pending → ready for pickup → completed by its seller, each step on the timeline', async () => {
    const { buyer, seller, order } = await orderOf('pickup');
    const ready = await move(seller, order.id, 'ready_for_pickup');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ id: order.id, status: 'ready_for_pickup' });
    const done = await move(seller, order.id, 'completed');
    expect(done.json()).toMatchObject({ status: 'completed' });
    const events = await timeline(buyer, order.id);
    expect(events.map((e) => [e.fromStatus, e.toStatus, e.actorId])).toEqual([
      [null, 'pending', buyer.id],
      ['pending', 'ready_for_pickup', seller.id],
      ['ready_for_pickup', 'completed', seller.id],
    ]);
  });

  it('refuses a skipped or a repeated step with a 409 that names the next step', async () => {
    const { seller, order } = await orderOf('pickup');
    const skipped = await move(seller, order.id, 'completed');
    expect(skipped.statusCode).toBe(409);
    expect(skipped.json().message).toBe(
      'This order is Pending: it cannot be marked Completed now. The next step is Ready for Pickup.',
    );
    expect((await move(seller, order.id, 'ready_for_pickup')).statusCode).toBe(200);
    const repeated = await move(seller, order.id, 'ready_for_pickup');
    expect(repeated.statusCode).toBe(409);
    expect(repeated.json().message).toBe('This order is already Ready for Pickup.');
    const wrongPath = await move(seller, order.id, 'in-transit');
    expect(wrongPath.statusCode).toBe(409);
  });

  it('is moved by its seller only: the buyer and an admin get 403, another seller 404', async () => {
    const { buyer, order } = await orderOf('pickup');
    const admin = await signedInAs(t, 'admin');
    const otherSeller = await signedInAs(t, 'seller');
    const byBuyer = await move(buyer, order.id, 'ready_for_pickup');
    expect(byBuyer.statusCode).toBe(403);
    expect(byBuyer.json().message).toBe("Only the order's seller can change its status.");
    expect((await move(admin, order.id, 'ready_for_pickup')).statusCode).toBe(403);
    expect((await move(otherSeller, order.id, 'ready_for_pickup')).statusCode).toBe(404);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row?.status).toBe('pending');
  });

  it('moves once when the seller presses twice at the same moment', async () => {
    const { seller, order } = await orderOf('pickup');
    const answers = await Promise.all([0, 1, 2].map(() => move(seller, order.id, 'ready_for_pickup')));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    const events = await timeline(seller, order.id);
    expect(events.filter((e) => e.toStatus === 'ready_for_pickup')).toHaveLength(1);
  });

  it('refuses statuses that have calls of their own, and unknown ones', async () => {
    const { seller, order } = await orderOf('pickup');
    for (const status of ['cancelled', 'assigned', 'pending', 'lost']) {
      const response = await move(seller, order.id, status);
      expect(response.statusCode).toBe(400);
      expect(response.json().fields.status).toContain('accept and cancel have calls of their own');
    }
  });
});

describe('a seller-delivered order', () => {
  it('goes pending → in transit → delivered by its seller', async () => {
    const { seller, order } = await orderOf('seller');
    expect((await move(seller, order.id, 'delivered')).statusCode).toBe(409);
    expect((await move(seller, order.id, 'in-transit')).json()).toMatchObject({ status: 'in-transit' });
    expect((await move(seller, order.id, 'delivered')).json()).toMatchObject({ status: 'delivered' });
    const finished = await move(seller, order.id, 'delivered');
    expect(finished.statusCode).toBe(409);
  });
});

describe('a driver-delivered order', () => {
  async function assigned(options: { trailer?: boolean } = {}) {
    const scene = await orderOf('driver', options);
    const driver = await signedInAs(t, 'driver', { isVerified: true });
    await t.database.db
      .update(orders)
      .set({ driverId: driver.id, status: 'assigned' })
      .where(eq(orders.id, scene.order.id));
    return { ...scene, driver };
  }

  it('is started and delivered by its assigned driver only', async () => {
    const { seller, order, driver } = await assigned();
    const otherDriver = await signedInAs(t, 'driver', { isVerified: true });
    expect((await move(otherDriver, order.id, 'in-transit')).statusCode).toBe(404);
    const bySeller = await move(seller, order.id, 'in-transit');
    expect(bySeller.statusCode).toBe(403);
    expect(bySeller.json().message).toBe("Only the order's assigned driver can change its delivery status.");
    const started = await move(driver, order.id, 'in-transit');
    expect(started.json()).toMatchObject({ status: 'in-transit' });
    expect(started.json()).not.toHaveProperty('total');
    expect((await move(driver, order.id, 'delivered')).json()).toMatchObject({ status: 'delivered' });
  });

  it('needs the delivery photo of a trailer order before it starts', async () => {
    const { order, driver } = await assigned({ trailer: true });
    const refused = await move(driver, order.id, 'in-transit');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(TRAILER_PHOTO_REQUIRED);
    await t.database.db
      .update(orders)
      .set({ deliveryPhotoUrl: '/objects/uploads/00000000-0000-4000-8000-000000000001' })
      .where(eq(orders.id, order.id));
    expect((await move(driver, order.id, 'in-transit')).statusCode).toBe(200);
  });
});
