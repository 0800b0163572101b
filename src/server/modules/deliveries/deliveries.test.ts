import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  as,
  createTestApp,
  createUser,
  signedInAs,
  signIn,
  type TestApp,
  type TestUser,
} from '../../testing/test-app';
import {
  buy,
  createProduct,
  openEveryDay,
  type OrderJson,
  type ProductOverrides,
} from '../../testing/commerce';
import { addresses, orders, orderStatusEvents, users } from '../../db/schema';
import { haversineMiles, type LatLng } from '../../../domain/geo';
import { ORDER_ALREADY_TAKEN, type AvailableOrder } from '../../../domain/deliveries';
import { moveOrder } from '../../testing/payout-scenes';

/**
 * The driver's area through the API (docs/rules/deliveries.md, Deliveries). Every test places its
 * people in a region of its own, far from the others', so the lists it reads hold its own orders
 * nearest first.
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

const MILES_PER_DEGREE_LATITUDE = 69.09;

/** A point `miles` north of `from`. */
const north = (from: LatLng, miles: number): LatLng => ({
  latitude: from.latitude + miles / MILES_PER_DEGREE_LATITUDE,
  longitude: from.longitude,
});

/** Gives the user a primary address at `point` (null: an address the geocoder could not place). */
async function placeAt(userId: string, point: LatLng | null, street = 'Test Ave'): Promise<string> {
  const [row] = await t.database.db
    .insert(addresses)
    .values({
      userId,
      addressLine1: `${crypto.randomInt(1, 9999)} ${street}`,
      city: 'Testville',
      state: 'CO',
      zipCode: '80202',
      latitude: point ? point.latitude.toFixed(7) : null,
      longitude: point ? point.longitude.toFixed(7) : null,
      isPrimary: true,
    })
    .returning({ id: addresses.id });
  if (!row) throw new Error('no address');
  return row.id;
}

interface DriverOptions {
  at?: LatLng | null;
  vehicle?: boolean;
  license?: boolean;
  trailer?: boolean;
  approved?: boolean;
}

const fakeImage = () => `/objects/uploads/${crypto.randomUUID()}`;

/** A driver with their images on file and approved unless told otherwise, signed in. */
async function driver(options: DriverOptions = {}): Promise<TestUser> {
  const user = await createUser(t, { roles: ['buyer', 'driver'], isVerified: options.approved ?? true });
  await t.database.db
    .update(users)
    .set({
      vehicleImageUrl: options.vehicle === false ? null : fakeImage(),
      licenseImageUrl: options.license === false ? null : fakeImage(),
      trailerImageUrl: options.trailer ? fakeImage() : null,
    })
    .where(eq(users.id, user.id));
  if (options.at !== undefined) await placeAt(user.id, options.at);
  return { ...user, cookie: await signIn(t, user.email, user.password) };
}

interface Party {
  user: TestUser;
  addressId: string;
}

async function partyAt(role: 'buyer' | 'seller', point: LatLng | null): Promise<Party> {
  const user = await signedInAs(t, role);
  return { user, addressId: await placeAt(user.id, point, role === 'buyer' ? 'Buyer Lane' : 'Market St') };
}

/** A paid order of one unit, delivered by a driver unless the product says otherwise. */
async function orderOf(buyer: Party, seller: Party, product: ProductOverrides = {}): Promise<OrderJson> {
  const made = await createProduct(t, seller.user.id, product);
  const [order] = await buy(t, buyer.user, {
    items: [{ productId: made.id, quantity: 1 }],
    isPickup: false,
    deliveryAddressId: buyer.addressId,
  });
  if (!order) throw new Error('no order');
  return order;
}

async function pickupOrderOf(buyer: Party, seller: Party): Promise<OrderJson> {
  const made = await createProduct(t, seller.user.id, { offerPickup: true });
  await openEveryDay(t, seller.user.id);
  const slots = await as(t, buyer.user, { method: 'GET', url: `/api/availability/slots/${seller.user.id}` });
  // The second slot: the first can come within the hour (and be refused) while the test runs.
  const offered = slots.json<{ datetime: string }[]>();
  const slot = offered[1] ?? offered[0];
  if (!slot) throw new Error('no pickup slot');
  const [order] = await buy(t, buyer.user, {
    items: [{ productId: made.id, quantity: 1 }],
    isPickup: true,
    scheduledPickupTimes: { [seller.user.id]: slot.datetime },
  });
  if (!order) throw new Error('no order');
  return order;
}

const available = (user: TestUser, query = '') =>
  as(t, user, { method: 'GET', url: `/api/orders/available${query}` });
const availableIds = async (user: TestUser, query = '?limit=100') => {
  const response = await available(user, query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AvailableOrder[]>().map((order) => order.id);
};
const accept = (user: TestUser, id: string) =>
  as(t, user, { method: 'POST', url: `/api/orders/${id}/assign` });
const decline = (user: TestUser, id: string) =>
  as(t, user, { method: 'POST', url: `/api/orders/${id}/decline` });
const setTime = (user: TestUser, id: string, estimatedDeliveryTime: string) =>
  as(t, user, {
    method: 'PATCH',
    url: `/api/orders/${id}/estimated-time`,
    payload: { estimatedDeliveryTime },
  });
const setPhoto = (user: TestUser, id: string, deliveryPhotoUrl: string) =>
  as(t, user, { method: 'PATCH', url: `/api/orders/${id}/delivery-photo`, payload: { deliveryPhotoUrl } });
/** A status step; Mark Delivered without proof, which the proof tests cover (deliver-order.test.ts). */
const move = (user: TestUser, id: string, status: string) => moveOrder(t, user, id, status);

/** A real 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** Uploads a picture as the browser would and answers its object path. */
async function upload(user: TestUser): Promise<string> {
  const asked = await as(t, user, { method: 'POST', url: '/api/objects/upload' });
  expect(asked.statusCode, asked.body).toBe(200);
  const { uploadURL, objectPath } = asked.json<{ uploadURL: string; objectPath: string }>();
  const url = new URL(uploadURL);
  const put = await t.app.inject({
    method: 'PUT',
    url: url.pathname + url.search,
    payload: PNG,
    headers: {
      'content-type': 'image/png',
      host: url.host,
      origin: url.origin,
      'sec-fetch-site': 'same-origin',
    },
  });
  expect(put.statusCode, put.body).toBe(200);
  return objectPath;
}

const inAnHour = () => new Date(Date.now() + 60 * 60 * 1000).toISOString();

describe('GET /api/orders/available (docs/rules/deliveries.md, Deliveries)', () => {
  it('offers pending driver deliveries nearest pickup first, with both distances, filtered and paged in the database', async () => {
    const home: LatLng = { latitude: 39.7392, longitude: -104.9903 };
    const me = await driver({ at: home });
    const buyer = await partyAt('buyer', north(home, -8));
    const near = await partyAt('seller', north(home, 2));
    const middle = await partyAt('seller', north(home, 20));
    const far = await partyAt('seller', north(home, 120));
    const unplaced = await partyAt('seller', null);
    const farOrder = await orderOf(buyer, far);
    const nearOrder = await orderOf(buyer, near);
    const middleOrder = await orderOf(buyer, middle);
    const unplacedOrder = await orderOf(buyer, unplaced);

    // Never offered: the seller's own delivery, a pickup, one a driver took, a cancelled one.
    const sellerDelivers = await orderOf(buyer, near, { sellerDelivery: true, sellerDeliveryFee: '5.00' });
    const pickup = await pickupOrderOf(buyer, near);
    const taken = await orderOf(buyer, near);
    expect((await accept(await driver(), taken.id)).statusCode).toBe(200);
    const cancelled = await orderOf(buyer, near);
    expect(
      (await as(t, buyer.user, { method: 'POST', url: `/api/orders/${cancelled.id}/cancel` })).statusCode,
    ).toBe(200);

    const all = await available(me, '?limit=100');
    expect(all.statusCode).toBe(200);
    const mine = new Set([farOrder.id, nearOrder.id, middleOrder.id, unplacedOrder.id]);
    const listed = all.json<AvailableOrder[]>();
    for (const never of [sellerDelivers, pickup, taken, cancelled])
      expect(listed.map((o) => o.id)).not.toContain(never.id);
    // Nearest first; an order whose pickup has no coordinates comes after every order that has them.
    expect(listed.filter((o) => mine.has(o.id)).map((o) => o.id)).toEqual([
      nearOrder.id,
      middleOrder.id,
      farOrder.id,
      unplacedOrder.id,
    ]);
    const nearCard = listed.find((o) => o.id === nearOrder.id);
    expect(nearCard?.pickupDistance).toBeCloseTo(haversineMiles(home, north(home, 2)), 1);
    expect(nearCard?.deliveryDistance).toBeCloseTo(haversineMiles(north(home, 2), north(home, -8)), 1);
    expect(nearCard).toMatchObject({
      orderNumber: nearOrder.orderNumber,
      requiresTrailer: false,
      itemCount: 1,
      driverEarnings: '9.00',
      deliveryArea: { city: 'Testville', state: 'CO', zipCode: '80202' },
      pickupAddress: { city: 'Testville', state: 'CO' },
    });
    // Distances with one decimal.
    expect(String(nearCard?.pickupDistance)).toMatch(/^\d+(\.\d)?$/);
    // Before accepting, the driver sees the delivery area, not the buyer's street.
    expect(JSON.stringify(nearCard)).not.toContain('Buyer Lane');
    expect(nearCard).not.toHaveProperty('deliveryAddress');
    const unplacedCard = listed.find((o) => o.id === unplacedOrder.id);
    expect(unplacedCard).toMatchObject({ pickupDistance: null, deliveryDistance: null });

    // Within 30 miles: the near and the middle one only, nearest first; 500 means any distance.
    expect(await availableIds(me, '?maxDistance=30')).toEqual([nearOrder.id, middleOrder.id]);
    expect(await availableIds(me, '?maxDistance=1')).toEqual([]);
    const any = await availableIds(me, '?maxDistance=500&limit=100');
    expect(any.filter((id) => mine.has(id))).toEqual([
      nearOrder.id,
      middleOrder.id,
      farOrder.id,
      unplacedOrder.id,
    ]);
    // Pages, in the same order.
    const pages = [];
    for (const offset of [0, 1, 2, 3])
      pages.push(...(await availableIds(me, `?maxDistance=200&limit=1&offset=${offset}`)));
    expect(pages).toEqual([nearOrder.id, middleOrder.id, farOrder.id]);

    // A driver without a primary address has nothing to measure from: no distance limit can hold.
    const homeless = await driver();
    const theirs = await available(homeless, '?limit=100');
    expect(theirs.json<AvailableOrder[]>().find((o) => o.id === nearOrder.id)?.pickupDistance).toBeNull();
    expect(await availableIds(homeless, '?maxDistance=400')).toEqual([]);
  });

  it('is not captured by GET /api/orders/:id: a buyer gets the role refusal, not a bad id', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const refused = await available(buyer);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('You need the driver or admin role for this.');
    const driverAnswer = await available(await driver());
    expect(driverAnswer.statusCode).toBe(200);
    expect(Array.isArray(driverAnswer.json())).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: '/api/orders/available' })).statusCode).toBe(401);
    expect((await available(await driver(), '?maxDistance=0')).statusCode).toBe(400);
    expect((await available(await driver(), '?maxDistance=501')).statusCode).toBe(400);
  });

  it('refuses an unverified driver on the list, on accept and on decline with a 403 naming what is missing', async () => {
    const home: LatLng = { latitude: 45.5152, longitude: -122.6784 };
    const order = await orderOf(await partyAt('buyer', home), await partyAt('seller', north(home, 1)));
    const cases: [DriverOptions, string][] = [
      [
        { vehicle: false, license: false, approved: false },
        'Your driver account is not verified yet. Missing: vehicle image, license image and admin approval.',
      ],
      [{ approved: false }, 'Your driver account is not verified yet. Missing: admin approval.'],
      [{ license: false }, 'Your driver account is not verified yet. Missing: license image.'],
    ];
    for (const [options, message] of cases) {
      const user = await driver(options);
      for (const response of [
        await available(user),
        await accept(user, order.id),
        await decline(user, order.id),
      ]) {
        expect(response.statusCode).toBe(403);
        expect(response.json().message).toBe(message);
      }
    }
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row).toMatchObject({ status: 'pending', driverId: null });
    // Admins may act as drivers without the documents.
    const admin = await signedInAs(t, 'admin');
    expect((await available(admin)).statusCode).toBe(200);
  });

  it('never offers a trailer order to a driver without a trailer image', async () => {
    const home: LatLng = { latitude: 35.0844, longitude: -106.6504 };
    const buyer = await partyAt('buyer', home);
    const seller = await partyAt('seller', north(home, 3));
    const trailerOrder = await orderOf(buyer, seller, { requiresTrailer: true });
    const plainOrder = await orderOf(buyer, seller);
    const withoutTrailer = await driver({ at: home });
    const withTrailer = await driver({ at: home, trailer: true });

    const offeredWithout = await availableIds(withoutTrailer, '?maxDistance=50');
    expect(offeredWithout).toContain(plainOrder.id);
    expect(offeredWithout).not.toContain(trailerOrder.id);
    expect(await availableIds(withoutTrailer)).not.toContain(trailerOrder.id);
    // Nor can it be taken or declined by id: it was never offered.
    expect((await accept(withoutTrailer, trailerOrder.id)).statusCode).toBe(404);
    expect((await decline(withoutTrailer, trailerOrder.id)).statusCode).toBe(404);

    const offeredWith = await available(withTrailer, '?maxDistance=50');
    const card = offeredWith.json<AvailableOrder[]>().find((o) => o.id === trailerOrder.id);
    expect(card).toMatchObject({ requiresTrailer: true, driverEarnings: '45.00' });
    expect((await accept(withTrailer, trailerOrder.id)).json()).toMatchObject({
      status: 'assigned',
      driverId: withTrailer.id,
    });
  });

  it('hides a declined order from that driver only, and declining twice is one decline', async () => {
    const home: LatLng = { latitude: 33.4484, longitude: -112.074 };
    const order = await orderOf(await partyAt('buyer', home), await partyAt('seller', north(home, 4)));
    const first = await driver({ at: home });
    const second = await driver({ at: home });
    expect(await availableIds(first, '?maxDistance=50')).toContain(order.id);

    const declined = await decline(first, order.id);
    expect(declined.statusCode).toBe(204);
    expect(declined.body).toBe('');
    expect(await availableIds(first, '?maxDistance=50')).not.toContain(order.id);
    expect(await availableIds(first)).not.toContain(order.id);
    expect(await availableIds(second, '?maxDistance=50')).toContain(order.id);
    expect((await decline(first, order.id)).statusCode).toBe(204);

    // The order is unchanged for everyone else, and the second driver can take it.
    expect((await accept(second, order.id)).statusCode).toBe(200);
    const late = await decline(first, order.id);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(ORDER_ALREADY_TAKEN);
    expect((await decline(first, crypto.randomUUID())).statusCode).toBe(404);
  });
});

describe('POST /api/orders/{id}/assign (docs/rules/deliveries.md, Deliveries)', () => {
  it('lets an admin take an offered order as its driver, as the transition table says, with the timeline event', async () => {
    const home: LatLng = { latitude: 39.7392, longitude: -104.9903 };
    const order = await orderOf(await partyAt('buyer', home), await partyAt('seller', north(home, 1)));
    const admin = await signedInAs(t, 'admin');

    const accepted = await accept(admin, order.id);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json<OrderJson>()).toMatchObject({ status: 'assigned', driverId: admin.id });
    const events = await t.database.db
      .select()
      .from(orderStatusEvents)
      .where(and(eq(orderStatusEvents.orderId, order.id), eq(orderStatusEvents.toStatus, 'assigned')));
    expect(events.map((event) => [event.fromStatus, event.actorId])).toEqual([['pending', admin.id]]);

    // Taken: a verified driver is told so, and cannot take it over.
    const late = await accept(await driver({ at: home }), order.id);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(ORDER_ALREADY_TAKEN);
  });

  it('gives one order to exactly one of 50 verified drivers accepting at once; the others get 409', async () => {
    const home: LatLng = { latitude: 47.6062, longitude: -122.3321 };
    const order = await orderOf(await partyAt('buyer', home), await partyAt('seller', north(home, 2)));
    const drivers = await Promise.all(Array.from({ length: 50 }, () => driver({ at: home })));

    const answers = await Promise.all(drivers.map((user) => accept(user, order.id)));

    const won = answers.filter((response) => response.statusCode === 200);
    const lost = answers.filter((response) => response.statusCode === 409);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(49);
    for (const response of lost) expect(response.json().message).toBe(ORDER_ALREADY_TAKEN);
    const winner = won[0]?.json<OrderJson>();
    expect(winner).toMatchObject({ status: 'assigned' });
    expect(drivers.map((user) => user.id)).toContain(winner?.driverId);

    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row).toMatchObject({ status: 'assigned', driverId: winner?.driverId });
    const events = await t.database.db
      .select()
      .from(orderStatusEvents)
      .where(and(eq(orderStatusEvents.orderId, order.id), eq(orderStatusEvents.toStatus, 'assigned')));
    expect(events).toHaveLength(1);
    expect(events[0]?.actorId).toBe(winner?.driverId);

    // Gone from everyone's list; the winner tapping again gets the order, not an error.
    expect(await availableIds(drivers[1] as TestUser)).not.toContain(order.id);
    const winnerUser = drivers.find((user) => user.id === winner?.driverId) as TestUser;
    expect((await accept(winnerUser, order.id)).statusCode).toBe(200);
  }, 120_000);

  it('answers 404 for an order that is not a driver delivery, and 409 for a cancelled one', async () => {
    const home: LatLng = { latitude: 30.2672, longitude: -97.7431 };
    const buyer = await partyAt('buyer', home);
    const seller = await partyAt('seller', north(home, 1));
    const me = await driver({ at: home });
    const sellerDelivers = await orderOf(buyer, seller, { sellerDelivery: true, sellerDeliveryFee: '5.00' });
    expect((await accept(me, sellerDelivers.id)).statusCode).toBe(404);
    expect((await accept(me, crypto.randomUUID())).statusCode).toBe(404);
    const cancelled = await orderOf(buyer, seller);
    await as(t, buyer.user, { method: 'POST', url: `/api/orders/${cancelled.id}/cancel` });
    const refused = await accept(me, cancelled.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This order is no longer available: it was cancelled.');
  });
});

describe('delivering (docs/rules/deliveries.md, Deliveries)', () => {
  async function assignedOrder(product: ProductOverrides = {}) {
    const home: LatLng = { latitude: 36.1627, longitude: -86.7816 };
    const buyer = await partyAt('buyer', home);
    const seller = await partyAt('seller', north(home, 5));
    const order = await orderOf(buyer, seller, product);
    const me = await driver({ at: home, trailer: product.requiresTrailer ?? false });
    const accepted = await accept(me, order.id);
    expect(accepted.statusCode, accepted.body).toBe(200);
    return { buyer, seller, order, me };
  }

  it('answers 404 on arrival time and photo to everyone but the assigned driver, and changes nothing', async () => {
    const s = await assignedOrder();
    const photo = await upload(s.me);
    const outsiders: Record<string, TestUser> = {
      'another verified driver': await driver(),
      'an admin': await signedInAs(t, 'admin'),
    };
    for (const [who, user] of Object.entries(outsiders)) {
      const time = await setTime(user, s.order.id, inAnHour());
      expect(time.statusCode, who).toBe(404);
      expect(time.json().message, who).toBe('Order not found');
      expect((await setPhoto(user, s.order.id, await upload(user))).statusCode, who).toBe(404);
    }
    // The buyer and the seller lack the driver role altogether.
    expect((await setTime(s.buyer.user, s.order.id, inAnHour())).statusCode).toBe(403);
    expect((await setPhoto(s.seller.user, s.order.id, photo)).statusCode).toBe(403);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, s.order.id));
    expect(row).toMatchObject({ estimatedDeliveryTime: null, deliveryPhotoUrl: null });
  });

  it('takes an arrival time in the future only, and refuses it out of order with a 409', async () => {
    const s = await assignedOrder();
    const past = await setTime(s.me, s.order.id, new Date(Date.now() - 60_000).toISOString());
    expect(past.statusCode).toBe(400);
    expect(past.json()).toMatchObject({
      message: 'The arrival time must be in the future',
      fields: { estimatedDeliveryTime: 'The arrival time must be in the future' },
    });
    const tooFar = await setTime(s.me, s.order.id, new Date(Date.now() + 15 * 86_400_000).toISOString());
    expect(tooFar.statusCode).toBe(400);
    expect((await setTime(s.me, s.order.id, 'tomorrow at noon')).statusCode).toBe(400);

    const when = new Date(Date.now() + 90 * 60_000);
    when.setUTCMilliseconds(0);
    const set = await setTime(s.me, s.order.id, when.toISOString().replace('Z', '+00:00'));
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().estimatedDeliveryTime).toBe(when.toISOString());
    // The buyer sees it on the order.
    const seen = await as(t, s.buyer.user, { method: 'GET', url: `/api/orders/${s.order.id}` });
    expect(seen.json().estimatedDeliveryTime).toBe(when.toISOString());

    expect((await move(s.me, s.order.id, 'in-transit')).statusCode).toBe(200);
    expect((await setTime(s.me, s.order.id, inAnHour())).statusCode).toBe(200);
    expect((await move(s.me, s.order.id, 'delivered')).statusCode).toBe(200);
    const late = await setTime(s.me, s.order.id, inAnHour());
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('This order is Delivered: its arrival time can no longer change.');
    const latePhoto = await setPhoto(s.me, s.order.id, await upload(s.me));
    expect(latePhoto.statusCode).toBe(409);
    expect(latePhoto.json().message).toBe(
      'This order is Delivered: its delivery photo can no longer change.',
    );
  });

  it("sets the delivery photo from the driver's own upload, readable by the order's parties and admins only", async () => {
    const s = await assignedOrder({ requiresTrailer: true });
    // Someone else's upload is not the driver's to use.
    const strangers = await upload(s.buyer.user);
    expect((await setPhoto(s.me, s.order.id, strangers)).statusCode).toBe(404);
    expect((await setPhoto(s.me, s.order.id, '/not/an/upload')).statusCode).toBe(400);

    const photo = await upload(s.me);
    const saved = await setPhoto(s.me, s.order.id, photo);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ deliveryPhotoUrl: photo, status: 'assigned' });
    // Saving the same photo again is fine; using it for another order is not.
    expect((await setPhoto(s.me, s.order.id, photo)).statusCode).toBe(200);
    const other = await assignedOrder();
    expect((await setPhoto(other.me, other.order.id, photo)).statusCode).toBe(404);

    const read = (user: TestUser) => as(t, user, { method: 'GET', url: photo });
    for (const user of [s.me, s.buyer.user, s.seller.user, await signedInAs(t, 'admin')])
      expect((await read(user)).statusCode).toBe(200);
    for (const user of [await driver(), await signedInAs(t, 'buyer')])
      expect((await read(user)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: photo })).statusCode).toBe(404);

    // With its photo, the trailer order may go out for delivery.
    expect((await move(s.me, s.order.id, 'in-transit')).statusCode).toBe(200);
  });

  it("counts the driver's earnings of delivered orders only", async () => {
    const s = await assignedOrder();
    const earnings = () => as(t, s.me, { method: 'GET', url: '/api/earnings/driver' });
    expect((await earnings()).json()).toMatchObject({ totalEarnings: '0.00', orderCount: 0 });
    await move(s.me, s.order.id, 'in-transit');
    expect((await earnings()).json()).toMatchObject({ totalEarnings: '0.00', orderCount: 0 });
    await move(s.me, s.order.id, 'delivered');
    expect((await earnings()).json()).toMatchObject({ totalEarnings: '9.00', orderCount: 1 });
    expect((await as(t, s.buyer.user, { method: 'GET', url: '/api/earnings/driver' })).statusCode).toBe(403);
  });
});

/** Keys of the buyer's payment and the items' prices, which no answer to a driver may hold. */
const PRICE_KEYS = new Set([
  'price',
  'lineTotal',
  'productSubtotal',
  'deliveryFee',
  'total',
  'sellerEarnings',
  'platformFee',
  'purchasePlatformFee',
  'deliveryPlatformFee',
  'salesCommissionRate',
  'deliveryCommissionRate',
  'seller30DaySales',
  'paymentIntentId',
]);

function priceKeysIn(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => priceKeysIn(item, `${path}[${i}]`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, inner]) => [
      ...(PRICE_KEYS.has(key) ? [`${path}.${key}`] : []),
      ...priceKeysIn(inner, `${path}.${key}`),
    ]);
  return [];
}

describe('what a driver is told (docs/rules/accounts.md, Roles and permissions)', () => {
  it('never holds item prices or the buyer payment, in any answer a driver receives', async () => {
    const home: LatLng = { latitude: 44.9778, longitude: -93.265 };
    const buyer = await partyAt('buyer', home);
    const seller = await partyAt('seller', north(home, 6));
    const order = await orderOf(buyer, seller, { price: '123.45', name: 'Walnut Dresser' });
    expect(order.total).toBe('133.45');
    const me = await driver({ at: home });

    const answers: [string, { statusCode: number; body: string }][] = [];
    const record = async (what: string, call: Promise<{ statusCode: number; body: string }>) => {
      const response = await call;
      expect(response.statusCode, `${what}: ${response.body}`).toBeLessThan(300);
      answers.push([what, response]);
    };
    const get = (url: string) => as(t, me, { method: 'GET', url });
    await record('available', available(me, '?maxDistance=50'));
    await record('assign', accept(me, order.id));
    await record('order', get(`/api/orders/${order.id}`));
    await record('items', get(`/api/orders/${order.id}/items`));
    await record('events', get(`/api/orders/${order.id}/events`));
    await record('my deliveries', get('/api/orders?as=driver'));
    await record('all my orders', get('/api/orders'));
    await record('arrival time', setTime(me, order.id, inAnHour()));
    await record('photo', setPhoto(me, order.id, await upload(me)));
    await record('start', move(me, order.id, 'in-transit'));
    await record('deliver', move(me, order.id, 'delivered'));
    await record('earnings', get('/api/earnings/driver'));
    await record('trips', get('/api/earnings/driver/trips'));

    for (const [what, response] of answers) {
      expect(priceKeysIn(JSON.parse(response.body)), what).toEqual([]);
      for (const amount of ['123.45', '133.45']) expect(response.body, what).not.toContain(amount);
    }
    // What the driver does see: the item without its price, and their own earnings.
    const items = JSON.parse(answers.find(([what]) => what === 'items')?.[1].body ?? '[]');
    expect(items).toMatchObject([{ productName: 'Walnut Dresser', quantity: 1 }]);
    const earnings = JSON.parse(answers.find(([what]) => what === 'earnings')?.[1].body ?? '{}');
    expect(earnings).toMatchObject({ totalEarnings: '9.00', orderCount: 1 });
    expect(Object.keys(earnings).sort()).toEqual([
      'orderCount',
      'thisWeek',
      'today',
      'totalEarnings',
      'weekly',
    ]);
  });
});
