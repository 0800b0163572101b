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
import { buy, createProduct, type OrderJson } from '../../testing/commerce';
import { startTestPushService, type TestDevice, type TestPushService } from '../../testing/push-service';
import { addresses, outbox, pushSubscriptions, users } from '../../db/schema';
import { publishLiveEvents } from '../../platform/live-events';
import type { AppContext } from '../../platform/context';
import { dispatchLiveEvents } from './dispatch-live-events';
import { pushReactor } from './push-reactor';
import { wallClockAt } from '../../../domain/marketplace-time';
import type { LatLng } from '../../../domain/geo';
import type { NotificationPreferences } from '../../../domain/push';

/**
 * Web Push end to end (docs/decisions/0019-reaching-people.md, Push and the installable app): devices
 * subscribe through the API with keys made as a browser makes them, live events become push rows,
 * and a push service on this machine decrypts what arrives with each device's keys. The right
 * people get each kind and nobody else; switches and quiet hours hold it back; 410 removes the
 * subscription and a 500 is tried again.
 */

let t: TestApp;
let push: TestPushService;
beforeAll(async () => {
  push = await startTestPushService();
  // The local push service is on this machine (docs/decisions/0023-accounts-an-attacker-cannot-bend.md).
  t = await createTestApp({ env: { PUSH_ALLOW_PRIVATE_HOSTS: 'true' } });
});
afterAll(async () => {
  await t.close();
  await push.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

const MILES_PER_DEGREE_LATITUDE = 69.09;
const HOME: LatLng = { latitude: 41.2, longitude: -96.1 };
const north = (miles: number): LatLng => ({
  latitude: HOME.latitude + miles / MILES_PER_DEGREE_LATITUDE,
  longitude: HOME.longitude,
});

async function placeAt(userId: string, point: LatLng): Promise<string> {
  const [row] = await t.database.db
    .insert(addresses)
    .values({
      userId,
      addressLine1: `${crypto.randomInt(1, 9999)} Push Ave`,
      city: 'Testville',
      state: 'NE',
      zipCode: '68102',
      latitude: point.latitude.toFixed(7),
      longitude: point.longitude.toFixed(7),
      isPrimary: true,
    })
    .returning({ id: addresses.id });
  if (!row) throw new Error('no address');
  return row.id;
}

const fakeImage = () => `/objects/uploads/${crypto.randomUUID()}`;

async function driverAt(point: LatLng, verified: boolean): Promise<TestUser> {
  const user = await createUser(t, { roles: ['buyer', 'driver'], role: 'driver', isVerified: verified });
  await t.database.db
    .update(users)
    .set({ vehicleImageUrl: fakeImage(), licenseImageUrl: fakeImage() })
    .where(eq(users.id, user.id));
  await placeAt(user.id, point);
  return { ...user, cookie: await signIn(t, user.email, user.password) };
}

async function subscribe(user: TestUser, name: string): Promise<TestDevice> {
  const device = push.device(name);
  const response = await as(t, user, {
    method: 'POST',
    url: '/api/push/subscriptions',
    payload: device.subscription,
    headers: {
      'user-agent': 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/130.0 Mobile Safari/537.36',
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  expect(response.json()).toMatchObject({ deviceLabel: 'Chrome on Android' });
  return device;
}

async function setPreferences(user: TestUser, changes: Partial<NotificationPreferences>): Promise<void> {
  const current = await as(t, user, { method: 'GET', url: '/api/push/preferences' });
  expect(current.statusCode).toBe(200);
  const response = await as(t, user, {
    method: 'PUT',
    url: '/api/push/preferences',
    payload: { ...current.json<NotificationPreferences>(), ...changes },
  });
  expect(response.statusCode, response.body).toBe(200);
}

interface Scene {
  seller: TestUser;
  buyer: TestUser;
  buyerAddressId: string;
  near: TestUser;
  far: TestUser;
  unverified: TestUser;
  stranger: TestUser;
}
let s: Scene;

async function newOrder(): Promise<OrderJson> {
  const product = await createProduct(t, s.seller.id, {});
  const [order] = await buy(t, s.buyer, {
    items: [{ productId: product.id, quantity: 1 }],
    isPickup: false,
    deliveryAddressId: s.buyerAddressId,
  });
  if (!order) throw new Error('no order');
  return order;
}

/** The notifications timer's work, once, then what each device got. */
async function deliver(): Promise<void> {
  push.clear();
  await t.app.runNotifications();
}

const everyone = ['seller', 'buyer', 'near', 'far', 'unverified', 'stranger'] as const;
function onlyTo(expected: Partial<Record<(typeof everyone)[number], number>>): void {
  for (const name of everyone) expect(push.to(name).length, name).toBe(expected[name] ?? 0);
}

describe('Web Push', () => {
  beforeAll(async () => {
    const seller = await signedInAs(t, 'seller');
    await placeAt(seller.id, HOME);
    const buyer = await signedInAs(t, 'buyer');
    const buyerAddressId = await placeAt(buyer.id, north(-6));
    s = {
      seller,
      buyer,
      buyerAddressId,
      near: await driverAt(north(3), true),
      far: await driverAt(north(80), true),
      unverified: await driverAt(north(2), false),
      stranger: await signedInAs(t, 'buyer'),
    };
    for (const name of everyone) await subscribe(s[name], name);
  });

  it('answers the public key and keeps subscriptions to their owner', async () => {
    const key = await as(t, s.buyer, { method: 'GET', url: '/api/push/public-key' });
    expect(key.statusCode).toBe(200);
    expect(Buffer.from(key.json<{ publicKey: string }>().publicKey, 'base64url')).toHaveLength(65);
    expect((await t.app.inject({ method: 'GET', url: '/api/push/public-key' })).statusCode).toBe(401);

    // Someone else's endpoint cannot be removed.
    const other = await as(t, s.stranger, {
      method: 'DELETE',
      url: '/api/push/subscriptions',
      payload: { endpoint: push.device('probe').subscription.endpoint },
    });
    expect(other.statusCode).toBe(404);
    const second = await subscribe(s.seller, 'seller-second');
    const theirs = await as(t, s.stranger, {
      method: 'DELETE',
      url: '/api/push/subscriptions',
      payload: { endpoint: second.subscription.endpoint },
    });
    expect(theirs.statusCode).toBe(404);
    const own = await as(t, s.seller, {
      method: 'DELETE',
      url: '/api/push/subscriptions',
      payload: { endpoint: second.subscription.endpoint },
    });
    expect(own.statusCode).toBe(204);

    // A user keeps ten devices at most: the oldest is forgotten.
    const many = await signedInAs(t, 'buyer');
    for (let i = 0; i < 11; i++) await subscribe(many, `many-${i}`);
    const kept = await t.database.db
      .select({ endpoint: pushSubscriptions.endpoint })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, many.id));
    expect(kept).toHaveLength(10);
    expect(kept.map((row) => row.endpoint)).not.toContain(push.device('many-0').subscription.endpoint);
  });

  it('tells the seller of a new order and drivers near it of the offer, nobody else', async () => {
    const order = await newOrder();
    await deliver();
    onlyTo({ seller: 1, near: 1 });
    expect(push.to('seller')[0]).toEqual({
      title: 'New order',
      body: `Order ${order.orderNumber} was placed`,
      url: '/seller/dashboard',
      tag: `order-${order.id}`,
    });
    const offer = push.to('near')[0];
    expect(offer).toMatchObject({ title: 'New delivery offer', url: '/driver/dashboard' });
    expect(offer?.body).toContain(order.orderNumber);
    // Never a price to a driver.
    expect(JSON.stringify(offer)).not.toMatch(/\$|\d+\.\d\d/);
    const sent = push.received.find((p) => p.device === 'near');
    expect(sent?.headers.authorization).toMatch(/^vapid t=.+, k=.+/);
    expect(sent?.headers['content-encoding']).toBe('aes128gcm');
  });

  it('tells the buyer of status changes and arrival times naming the order, never the driver who made them', async () => {
    const order = await newOrder();
    await deliver();
    const accepted = await as(t, s.near, { method: 'POST', url: `/api/orders/${order.id}/assign` });
    expect(accepted.statusCode, accepted.body).toBe(200);
    await deliver();
    onlyTo({ buyer: 1 });
    expect(push.to('buyer')[0]).toMatchObject({
      title: 'Order update',
      body: `Order ${order.orderNumber} has a driver`,
      url: '/buyer/orders',
    });

    const moved = await as(t, s.near, {
      method: 'PATCH',
      url: `/api/orders/${order.id}/status`,
      payload: { status: 'in-transit' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    await deliver();
    onlyTo({ buyer: 1 });
    expect(push.to('buyer')[0]?.body).toBe(`Order ${order.orderNumber} is on the way`);

    const arrival = await as(t, s.near, {
      method: 'PATCH',
      url: `/api/orders/${order.id}/estimated-time`,
      payload: { estimatedDeliveryTime: new Date(Date.now() + 3_600_000).toISOString() },
    });
    expect(arrival.statusCode, arrival.body).toBe(200);
    await deliver();
    onlyTo({ buyer: 1 });
    expect(push.to('buyer')[0]?.body).toMatch(new RegExp(`^Order ${order.orderNumber} is expected `));

    // A message reaches the order's other parties, not its sender and not a stranger.
    const posted = await as(t, s.buyer, {
      method: 'POST',
      url: '/api/messages',
      payload: { orderId: order.id, content: 'Please ring twice' },
    });
    expect(posted.statusCode, posted.body).toBe(201);
    await deliver();
    onlyTo({ seller: 1, near: 1 });
    expect(push.to('seller')[0]?.body).toContain(`about order ${order.orderNumber}`);
    // What the message says stays in the app.
    expect(JSON.stringify(push.received)).not.toContain('ring twice');
  });

  it('tells the buyer and the seller of a hand back, and offers it again near it but not to the driver who gave it back', async () => {
    const other = await driverAt(north(4), true);
    await subscribe(other, 'other-near');
    const order = await newOrder();
    await deliver();
    const accepted = await as(t, s.near, { method: 'POST', url: `/api/orders/${order.id}/assign` });
    expect(accepted.statusCode, accepted.body).toBe(200);
    await deliver();

    const handed = await as(t, s.near, { method: 'POST', url: `/api/orders/${order.id}/hand-back` });
    expect(handed.statusCode, handed.body).toBe(204);
    await deliver();
    onlyTo({ buyer: 1, seller: 1 });
    for (const party of ['buyer', 'seller'] as const)
      expect(push.to(party)[0]).toMatchObject({
        title: 'Order update',
        body: `Order ${order.orderNumber} is waiting for a new driver`,
      });
    expect(push.to('other-near')).toEqual([
      expect.objectContaining({ title: 'New delivery offer', tag: `offer-${order.id}` }),
    ]);
  });

  it('sends nothing about an order to someone named who may not see it', async () => {
    const order = await newOrder();
    await deliver();
    await publishLiveEvents(t.database.db, [
      {
        event: {
          type: 'order.changed',
          orderId: order.id,
          orderNumber: order.orderNumber,
          status: 'cancelled',
          from: 'pending',
          actorId: null,
        },
        audience: [s.stranger.id, s.buyer.id],
      },
    ]);
    await deliver();
    onlyTo({ buyer: 1 });

    // A device another account signed in on after the message was queued does not get it.
    const shared = await subscribe(s.buyer, 'shared');
    const sharedOrder = await newOrder();
    await deliver();
    await publishLiveEvents(t.database.db, [
      {
        event: {
          type: 'order.changed',
          orderId: sharedOrder.id,
          orderNumber: sharedOrder.orderNumber,
          status: 'cancelled',
          from: 'pending',
          actorId: null,
        },
        audience: [s.buyer.id, s.seller.id],
      },
    ]);
    const reactor = pushReactor({ config: t.config, now: () => new Date() } as AppContext);
    await dispatchLiveEvents(t.database.db, [reactor]);
    const takenOver = await as(t, s.stranger, {
      method: 'POST',
      url: '/api/push/subscriptions',
      payload: shared.subscription,
    });
    expect(takenOver.statusCode).toBe(201);
    await deliver();
    onlyTo({ buyer: 1, seller: 1 });
    expect(push.to('shared')).toEqual([]);
    const [dropped] = await t.database.db
      .select()
      .from(outbox)
      .where(
        and(eq(outbox.userId, s.buyer.id), eq(outbox.lastError, 'the device now belongs to someone else')),
      );
    expect(dropped?.status).toBe('dropped');

    // The buyer who cancels hears nothing of their own change.
    const mine = await newOrder();
    await deliver();
    const cancelled = await as(t, s.buyer, { method: 'POST', url: `/api/orders/${mine.id}/cancel` });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    await deliver();
    // Its seller hears of it, and drivers near it learn nothing more (it is no longer offered).
    onlyTo({ seller: 1 });
    expect(push.to('seller')[0]?.body).toBe(`Order ${mine.orderNumber} was cancelled`);
  });

  it('holds back a kind switched off and everything in quiet hours', async () => {
    await setPreferences(s.seller, { newOrders: false });
    const clock = wallClockAt(Date.now(), t.config.marketplaceTz);
    const minute = clock.hour * 60 + clock.minute;
    await setPreferences(s.near, {
      quietStartMinute: (minute + 1440 - 30) % 1440,
      quietEndMinute: (minute + 30) % 1440,
    });
    await newOrder();
    await deliver();
    onlyTo({});

    await setPreferences(s.seller, { newOrders: true });
    await setPreferences(s.near, { quietStartMinute: null, quietEndMinute: null });
    const bad = await as(t, s.near, {
      method: 'PUT',
      url: '/api/push/preferences',
      payload: {
        offers: true,
        newOrders: true,
        orderStatus: true,
        arrivalTimes: true,
        messages: true,
        quietStartMinute: 1500,
        quietEndMinute: null,
      },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('removes a subscription the push service says is gone, and tries again after a 500', async () => {
    push.answer('near', 410);
    push.answer('seller', 500);
    await newOrder();
    await deliver();
    onlyTo({});
    expect(
      await t.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, s.near.id)),
    ).toEqual([]);
    const [retried] = await t.database.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.userId, s.seller.id), eq(outbox.status, 'queued')));
    expect(retried).toMatchObject({ channel: 'push', kind: 'push_new_order', attempts: 1 });
    expect(retried?.lastError).toContain('500');
    const [dropped] = await t.database.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.userId, s.near.id), eq(outbox.status, 'dropped')));
    expect(dropped?.lastError).toContain('410');

    // Its wait over, the retry reaches the seller.
    await t.database.db
      .update(outbox)
      .set({ nextAttemptAt: new Date(Date.now() - 1000) })
      .where(eq(outbox.id, retried?.id ?? -1));
    await deliver();
    onlyTo({ seller: 1 });
    expect(push.to('seller')[0]?.title).toBe('New order');
  });
});

describe('push endpoints are public addresses (docs/decisions/0023-accounts-an-attacker-cannot-bend.md)', () => {
  const names: Record<string, string[]> = {
    'push.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    'localhost.': ['127.0.0.1'],
    'foo.localhost': ['127.0.0.1', '::1'],
    '127.0.0.1.nip.io': ['127.0.0.1'],
    'metadata.google.internal': ['169.254.169.254'],
    'half.example.com': ['93.184.216.34', '10.0.0.7'],
    'mapped.example.com': ['::ffff:127.0.0.1'],
  };
  let strict: TestApp;
  let turnedPrivate = false;
  beforeAll(async () => {
    strict = await createTestApp({
      resolveHost: async (name) => {
        if (turnedPrivate && name === 'push.example.com') return ['10.0.0.9'];
        const found = names[name];
        if (!found) throw new Error(`getaddrinfo ENOTFOUND ${name}`);
        return found;
      },
    });
  });
  afterAll(async () => {
    await strict.close();
  });

  it('refuses a subscription to a private, loopback, link-local or unresolvable host, or plain http', async () => {
    const user = await signedInAs(strict, 'buyer');
    const keys = push.device('public-check').subscription.keys;
    const subscribe = (endpoint: string) =>
      as(strict, user, { method: 'POST', url: '/api/push/subscriptions', payload: { endpoint, keys } });
    for (const endpoint of [
      'https://localhost.:5432/',
      'https://foo.localhost/',
      'https://127.0.0.1.nip.io/',
      'https://metadata.google.internal/',
      'https://half.example.com/send/1',
      'https://mapped.example.com/send/1',
      'https://10.0.0.1/send/1',
      'https://[::1]/send/1',
      'https://[::ffff:7f00:1]/send/1',
      'https://[2001:db8::1]/send/1',
      'https://intranet/send/1',
      'http://push.example.com/send/1',
      'https://user:secret@push.example.com/send/1',
      push.device('local').subscription.endpoint,
    ]) {
      const refused = await subscribe(endpoint);
      expect(refused.statusCode, endpoint).toBe(400);
      expect(refused.json().fields, endpoint).toEqual({
        endpoint: 'must be an https:// URL of a public push service',
      });
    }
    expect((await subscribe('https://push.example.com/send/1')).statusCode).toBe(201);
  });

  it('checks the address again at send time: a name that turned private is dropped, not sent', async () => {
    turnedPrivate = false;
    const seller = await signedInAs(strict, 'seller');
    const keys = push.device('turns-private').subscription.keys;
    const saved = await as(strict, seller, {
      method: 'POST',
      url: '/api/push/subscriptions',
      payload: { endpoint: 'https://push.example.com/send/turns', keys },
    });
    expect(saved.statusCode).toBe(201);
    turnedPrivate = true;
    try {
      await strict.database.db.insert(outbox).values({
        channel: 'push',
        kind: 'order.changed',
        userId: seller.id,
        payload: {
          subscriptionId: saved.json<{ id: string }>().id,
          message: { title: 't', body: 'b', url: '/', tag: 'x' },
        },
      });
      const report = await strict.app.runNotifications();
      expect(report).toMatchObject({ sent: 0, dropped: 1 });
      const [row] = await strict.database.db.select().from(outbox).where(eq(outbox.userId, seller.id));
      expect(row?.lastError).toBe('the push endpoint is not a public address');
    } finally {
      turnedPrivate = false;
    }
  });
});
