import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import {
  as,
  createTestApp,
  createUser,
  signIn,
  signedInAs,
  type TestApp,
  type TestUser,
} from '../../testing/test-app';
import { buy, createAddress, createProduct, type OrderJson } from '../../testing/commerce';
import { listenOnFreePort, openEventStream, type EventStreamClient } from '../../testing/event-stream';
import { adminActions, users } from '../../db/schema';
import {
  ACCOUNT_SUSPENDED_MESSAGE,
  LAST_ADMIN_MESSAGE,
  OWN_ROLE_MESSAGE,
  OWN_SUSPENSION_MESSAGE,
  roleWithheldMessage,
  type ModeratedUser,
} from '../../../domain/users';

/**
 * Moderation (docs/rules/accounts.md, Moderation): an admin takes roles away as well as granting
 * them, suspends and restores users; listings follow their seller, orders stay, sessions end.
 */

let t: TestApp;
let baseUrl: string;
let admin: TestUser;
const streams: EventStreamClient[] = [];

beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await listenOnFreePort(t.app);
  admin = await signedInAs(t, 'admin');
});
afterEach(() => {
  for (const stream of streams.splice(0)) stream.close();
  expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
});
afterAll(async () => {
  await t.close();
});

const removeRole = (by: TestUser, userId: string, role: string) =>
  as(t, by, { method: 'DELETE', url: `/api/admin/users/${userId}/roles/${role}` });
const grantRole = (by: TestUser, userId: string, role: string) =>
  as(t, by, { method: 'PATCH', url: `/api/admin/users/${userId}/role`, payload: { role } });
const suspend = (by: TestUser, userId: string) =>
  as(t, by, { method: 'POST', url: `/api/admin/users/${userId}/suspend` });
const restore = (by: TestUser, userId: string) =>
  as(t, by, { method: 'POST', url: `/api/admin/users/${userId}/restore` });

async function publicProductIds(): Promise<string[]> {
  const response = await t.app.inject({ method: 'GET', url: '/api/products?limit=100' });
  return response.json<{ id: string }[]>().map((product) => product.id);
}

/** A seller with a product and a buyer's paid order of it. */
async function sellerWithAnOrder() {
  const seller = await signedInAs(t, 'seller');
  const buyer = await signedInAs(t, 'buyer');
  const address = await createAddress(t, buyer.id);
  await createAddress(t, seller.id);
  const product = await createProduct(t, seller.id, { stock: 10 });
  const [order] = await buy(t, buyer, {
    items: [{ productId: product.id, quantity: 1 }],
    isPickup: false,
    deliveryAddressId: address.id,
  });
  if (!order) throw new Error('no order');
  return { seller, buyer, product, order };
}

describe('taking a role away', () => {
  it('a removed seller cannot list, their products leave the catalog, their orders stay', async () => {
    const { seller, buyer, product, order } = await sellerWithAnOrder();
    expect(await publicProductIds()).toContain(product.id);

    const removed = await removeRole(admin, seller.id, 'seller');
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json<ModeratedUser>()).toMatchObject({
      role: 'buyer',
      roles: ['buyer'],
      withheldRoles: ['seller'],
    });

    // Their open session sees it at its next request: the seller calls are refused.
    const listing = await as(t, seller, {
      method: 'POST',
      url: '/api/products',
      payload: { name: 'Lamp', price: '10.00', category: 'Furniture', stock: 1 },
    });
    expect(listing.statusCode).toBe(403);
    expect((await as(t, seller, { method: 'GET', url: '/api/auth/user' })).json()).toMatchObject({
      role: 'buyer',
      roles: ['buyer'],
    });
    // Gone from the catalog and its page; kept on the order, which both parties still see.
    expect(await publicProductIds()).not.toContain(product.id);
    expect((await t.app.inject({ method: 'GET', url: `/api/products/${product.id}` })).statusCode).toBe(404);
    const seen = await as(t, buyer, { method: 'GET', url: `/api/orders/${order.id}` });
    expect(seen.statusCode).toBe(200);
    expect(seen.json<OrderJson>().status).toBe('pending');
    expect((await as(t, seller, { method: 'GET', url: `/api/orders/${order.id}` })).statusCode).toBe(200);
    // A checkout of it is refused as unavailable.
    const address = await createAddress(t, buyer.id, false);
    const quote = await as(t, buyer, {
      method: 'POST',
      url: '/api/checkout/quote',
      payload: {
        items: [{ productId: product.id, quantity: 1 }],
        isPickup: false,
        deliveryAddressId: address.id,
      },
    });
    expect(JSON.stringify(quote.json())).toContain('no longer available');

    // They cannot take the role back by themself; an admin can give it back, listings and all.
    const again = await as(t, seller, {
      method: 'POST',
      url: '/api/auth/user/roles',
      payload: { role: 'seller' },
    });
    expect(again.statusCode).toBe(403);
    expect(again.json().message).toBe(roleWithheldMessage('seller'));
    expect((await grantRole(admin, seller.id, 'seller')).json<ModeratedUser>().withheldRoles).toEqual([]);
    expect(await publicProductIds()).toContain(product.id);

    const [logged] = await t.database.db
      .select()
      .from(adminActions)
      .where(and(eq(adminActions.targetId, seller.id), eq(adminActions.action, 'user.role_removed')));
    expect(logged).toMatchObject({ actorId: admin.id, after: { role: 'buyer', roles: ['buyer'] } });
  });

  it('keeps the current role unless it is the one taken away, and tells the open tab at once', async () => {
    const user = await createUser(t, { roles: ['buyer', 'seller', 'driver'], role: 'driver' });
    const cookie = await signIn(t, user.email, user.password);
    const stream = await openEventStream(baseUrl, cookie);
    streams.push(stream);

    const removed = await removeRole(admin, user.id, 'seller');
    expect(removed.json<ModeratedUser>()).toMatchObject({ role: 'driver', roles: ['buyer', 'driver'] });
    await stream.waitFor((event) => event.type === 'account.changed' && event.userId === user.id);
    const current = await removeRole(admin, user.id, 'driver');
    expect(current.json<ModeratedUser>()).toMatchObject({ role: 'buyer', roles: ['buyer'] });
    // Taking away a role the user does not have changes nothing.
    expect((await removeRole(admin, user.id, 'driver')).statusCode).toBe(200);
  });

  it("ends a suspended user's open event streams at once, and nobody else's (docs/rules/accounts.md, Moderation)", async () => {
    const user = await createUser(t);
    const cookie = await signIn(t, user.email, user.password);
    const second = await signIn(t, user.email, user.password);
    const bystander = await signedInAs(t, 'buyer');
    const stream = await openEventStream(baseUrl, cookie);
    const secondStream = await openEventStream(baseUrl, second);
    const bystanderStream = await openEventStream(baseUrl, bystander.cookie);
    streams.push(stream, secondStream, bystanderStream);

    expect((await suspend(admin, user.id)).statusCode).toBe(200);
    // Well within the heartbeat (25 s), which rechecks the session too.
    await stream.waitUntil(() => stream.ended(), 'the first stream to end', 2_000);
    await secondStream.waitUntil(() => secondStream.ended(), 'the second stream to end', 2_000);
    expect(bystanderStream.ended()).toBe(false);
  });

  it('never on the admin themself, never the last admin, never buyer, and only by an admin', async () => {
    expect((await removeRole(admin, admin.id, 'admin')).json().message).toBe(OWN_ROLE_MESSAGE);
    expect((await removeRole(admin, admin.id, 'admin')).statusCode).toBe(403);
    expect((await removeRole(admin, admin.id, 'buyer')).statusCode).toBe(400);
    const seller = await signedInAs(t, 'seller');
    expect((await removeRole(seller, admin.id, 'admin')).statusCode).toBe(403);
  });

  it('leaves one admin when two admins take the admin role from each other at once', async () => {
    const first = await signedInAs(t, 'admin');
    const second = await signedInAs(t, 'admin');
    // Only these two hold the admin role for this test.
    await t.database.db
      .update(users)
      .set({ roles: ['buyer'], role: 'buyer' })
      .where(eq(users.id, admin.id));
    try {
      const answers = await Promise.all([
        removeRole(first, second.id, 'admin'),
        removeRole(second, first.id, 'admin'),
      ]);
      const statuses = answers.map((answer) => answer.statusCode).sort();
      // The one who lost the admin role first is refused by the policy (403) or by the count (409).
      expect(statuses[0]).toBe(200);
      expect([403, 409]).toContain(statuses[1]);
      const refused = answers.find((answer) => answer.statusCode !== 200);
      if (refused?.statusCode === 409) expect(refused.json().message).toBe(LAST_ADMIN_MESSAGE);
      const admins = await t.database.db
        .select({ id: users.id })
        .from(users)
        .where(sql`'admin' = any(${users.roles})`);
      expect(admins).toHaveLength(1);
    } finally {
      await t.database.db
        .update(users)
        .set({ roles: ['buyer', 'admin'], role: 'admin' })
        .where(eq(users.id, admin.id));
    }
  });
});

describe('suspending a user', () => {
  it("ends the user's sessions, refuses their sign-in, hides their listings; restoring undoes it", async () => {
    const { seller, product, order } = await sellerWithAnOrder();
    const suspended = await suspend(admin, seller.id);
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect(suspended.json<ModeratedUser>().suspendedAt).not.toBeNull();

    // The open session is over at its next request.
    expect((await as(t, seller, { method: 'GET', url: '/api/auth/user' })).statusCode).toBe(401);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: seller.email, password: seller.password },
    });
    expect(signIn.statusCode).toBe(403);
    expect(signIn.json().message).toBe(ACCOUNT_SUSPENDED_MESSAGE);
    // A wrong password says nothing of the suspension.
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: seller.email, password: 'not it' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(await publicProductIds()).not.toContain(product.id);
    // Their orders stay, for the admin too.
    expect((await as(t, admin, { method: 'GET', url: `/api/orders/${order.id}` })).statusCode).toBe(200);

    const restored = await restore(admin, seller.id);
    expect(restored.json<ModeratedUser>().suspendedAt).toBeNull();
    expect(await publicProductIds()).toContain(product.id);
    const back = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: seller.email, password: seller.password },
    });
    expect(back.statusCode).toBe(200);

    const logged = await t.database.db
      .select({ action: adminActions.action })
      .from(adminActions)
      .where(eq(adminActions.targetId, seller.id));
    expect(logged.map((row) => row.action).sort()).toEqual(['user.restored', 'user.suspended']);
  });

  it('is refused for the admin themself and for anyone but an admin', async () => {
    const own = await suspend(admin, admin.id);
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toBe(OWN_SUSPENSION_MESSAGE);
    const buyer = await signedInAs(t, 'buyer');
    const target = await signedInAs(t, 'buyer');
    expect((await suspend(buyer, target.id)).statusCode).toBe(403);
    expect((await as(t, target, { method: 'GET', url: '/api/auth/user' })).statusCode).toBe(200);
  });
});

describe('hiding a product', () => {
  it('takes it out of the catalog and its page for everyone but its seller and admins, until shown again', async () => {
    const seller = await signedInAs(t, 'seller');
    const product = await createProduct(t, seller.id);
    const hide = (hidden: boolean, by: TestUser = admin) =>
      as(t, by, {
        method: 'PATCH',
        url: `/api/admin/products/${product.id}/visibility`,
        payload: { hidden },
      });

    expect((await hide(true, seller)).statusCode).toBe(403);
    const hidden = await hide(true);
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect(hidden.json()).toMatchObject({ id: product.id, hidden: true, available: true });
    expect(await publicProductIds()).not.toContain(product.id);
    expect((await t.app.inject({ method: 'GET', url: `/api/products/${product.id}` })).statusCode).toBe(404);
    expect((await as(t, seller, { method: 'GET', url: `/api/products/${product.id}` })).statusCode).toBe(200);
    const own = await as(t, seller, { method: 'GET', url: '/api/seller/products' });
    expect(own.json<{ id: string; hidden: boolean }[]>()).toEqual([
      expect.objectContaining({ hidden: true }),
    ]);

    expect((await hide(false)).json()).toMatchObject({ hidden: false });
    expect(await publicProductIds()).toContain(product.id);
    const logged = await t.database.db
      .select({ action: adminActions.action })
      .from(adminActions)
      .where(eq(adminActions.targetId, product.id));
    expect(logged.map((row) => row.action).sort()).toEqual(['product.hidden', 'product.restored']);
  });
});
