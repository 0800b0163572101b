import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addresses, orders, sessions, users } from '../../db/schema';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import { buy, createAddress, createProduct } from '../../testing/commerce';

/**
 * Every public read is kept in memory and served again until what it shows changes
 * (docs/decisions/0015-catalog-and-checkout-throughput.md, Every public read kept); signed-in
 * users are kept on the embedded database until their session or account changes
 * (docs/decisions/0029-signed-in-reads-kept.md). Whatever changes, the very next read shows it; a
 * pickup slot is never offered once it is less than the lead time away, whatever is kept.
 */

/** The app's clock: Monday 7 December 2026, 9:50 in Chicago (15:50 UTC). */
let clock = new Date('2026-12-07T15:50:00Z');
let t: TestApp;
let admin: TestUser;
let seller: TestUser;
let buyer: TestUser;
/** Requests that went through the app's hooks; an answer replayed from memory does not. */
const throughHooks: string[] = [];

beforeAll(async () => {
  t = await createTestApp({
    now: () => clock,
    extend: (app) =>
      app.addHook('onRequest', (request, _reply, done) => {
        throughHooks.push(`${request.method} ${request.url}`);
        done();
      }),
  });
  admin = await signedInAs(t, 'admin');
  seller = await signedInAs(t, 'seller', { firstName: 'Kept', lastName: 'Seller' });
  buyer = await signedInAs(t, 'buyer', { firstName: 'Kept', lastName: 'Buyer' });
  await createAddress(t, seller.id);
  await createAddress(t, buyer.id);
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

const get = (url: string, user?: TestUser) => as(t, user, { method: 'GET', url });

/**
 * GETs `url` as a visitor, then again: the second answer must be the first's, from memory. A
 * change written straight to the database (not through a request) is heard a moment later on
 * PostgreSQL, which may drop the first answer before it is kept: then both are read again.
 */
async function readTwice<T>(url: string): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const first = await get(url);
    expect(first.statusCode, first.body).toBe(200);
    const before = throughHooks.length;
    const second = await get(url);
    expect(second.body).toBe(first.body);
    if (throughHooks.length === before) return first.json<T>();
    expect(attempt, 'the second read is replayed from memory').toBeLessThan(5);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('categories', () => {
  it('show a category added, renamed or deleted on the next read', async () => {
    const names = async () => (await readTwice<{ name: string }[]>('/api/categories')).map((c) => c.name);
    expect(await names()).not.toContain('Kept Category');
    const added = await as(t, admin, {
      method: 'POST',
      url: '/api/categories',
      payload: { name: 'Kept Category' },
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(await names()).toContain('Kept Category');
    const id = added.json<{ id: string }>().id;
    const renamed = await as(t, admin, {
      method: 'PATCH',
      url: `/api/categories/${id}`,
      payload: { name: 'Kept Renamed' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await names()).toEqual(expect.arrayContaining(['Kept Renamed']));
    expect(await names()).not.toContain('Kept Category');
    expect((await as(t, admin, { method: 'DELETE', url: `/api/categories/${id}` })).statusCode).toBe(204);
    expect(await names()).not.toContain('Kept Renamed');
  });
});

describe('a product page', () => {
  it("shows an edit, a hidden product and the seller's new name on the next visitor's read", async () => {
    const product = await createProduct(t, seller.id, { name: 'Kept Lamp' });
    const url = `/api/products/${product.id}`;
    expect((await readTwice<{ name: string }>(url)).name).toBe('Kept Lamp');

    const edited = await as(t, seller, { method: 'PATCH', url, payload: { name: 'Kept Brighter Lamp' } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await readTwice<{ name: string }>(url)).name).toBe('Kept Brighter Lamp');

    const renamed = await as(t, seller, {
      method: 'PATCH',
      url: '/api/auth/user',
      payload: { firstName: 'Renamed', lastName: 'Seller' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await readTwice<{ sellerName: string }>(url)).sellerName).toBe('Renamed Seller');

    const hidden = await as(t, admin, {
      method: 'PATCH',
      url: `/api/admin/products/${product.id}/visibility`,
      payload: { hidden: true },
    });
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect((await get(url)).statusCode).toBe(404);
    // Its seller still sees it: a signed-in caller is never sent the visitors' answer.
    expect((await get(url, seller)).statusCode).toBe(200);
  });

  it("gives a signed-in buyer their distance, not a visitor's kept page", async () => {
    const product = await createProduct(t, seller.id, { name: 'Kept Chair' });
    const url = `/api/products/${product.id}`;
    expect((await readTwice<{ distance: number | null }>(url)).distance).toBeNull();
    const mine = await get(url, buyer);
    expect(mine.statusCode).toBe(200);
    expect(mine.json<{ distance: number | null }>().distance).not.toBeNull();
  });

  it('measure from where the primary address is now, moved in the database between two reads', async () => {
    const mover = await signedInAs(t, 'buyer');
    const home = await createAddress(t, mover.id);
    const product = await createProduct(t, seller.id, { name: 'Kept Lamp' });
    const distance = async (url: string, user = mover) => {
      const response = await get(url, user);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<
        { id: string; distance: number | null } | { id: string; distance: number | null }[]
      >();
      const item = Array.isArray(body) ? body.find((p) => p.id === product.id) : body;
      return item?.distance;
    };
    const page = `/api/products/with-distance?search=${encodeURIComponent('Kept Lamp')}`;
    const near = await distance(page);
    expect(near).toBeLessThan(5);
    // Again, from the same place: replayed before the app's hooks
    // (docs/decisions/0029-signed-in-reads-kept.md, Answered in the server's listener). The address
    // and the product were written straight to the database: on PostgreSQL their notices may
    // arrive after the first answer was kept and drop it, and then both are read again (readTwice).
    for (let attempt = 1; ; attempt++) {
      const before = throughHooks.length;
      expect(await distance(page)).toBe(near);
      if (throughHooks.length === before) break;
      expect(attempt, 'replayed for the same place').toBeLessThan(5);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await distance(`/api/products/${product.id}`)).toBe(near);
    // Not through a request of this app: the place is read with the session, and the database's
    // notice drops the kept one.
    await t.database.db
      .update(addresses)
      .set({ latitude: '40.7128000', longitude: '-74.0060000' })
      .where(eq(addresses.id, home.id));
    const far = await distance(page);
    expect(far).toBeGreaterThan(700);
    expect(await distance(page)).toBe(far);
    expect(await distance(`/api/products/${product.id}`)).toBe(far);
    // Each caller is answered from their own place, whatever was replayed to another.
    const neighbour = await signedInAs(t, 'buyer');
    await createAddress(t, neighbour.id);
    expect(await distance(page, neighbour)).toBe(near);
    expect(await distance(page, neighbour)).toBe(near);
    expect(await distance(page)).toBe(far);
  });
});

describe("a user's reviews", () => {
  it('show a new review on the next read', async () => {
    const product = await createProduct(t, seller.id, { stock: 5 });
    const address = await createAddress(t, buyer.id, false);
    const [order] = await buy(t, buyer, {
      items: [{ productId: product.id, quantity: 1 }],
      isPickup: false,
      deliveryAddressId: address.id,
    });
    if (!order) throw new Error('no order');
    await t.database.db.update(orders).set({ status: 'delivered' }).where(eq(orders.id, order.id));
    const url = `/api/reviews/user/${seller.id}`;
    const before = await readTwice<{ totalReviews: number }>(url);
    const posted = await as(t, buyer, {
      method: 'POST',
      url: '/api/reviews',
      payload: {
        orderId: order.id,
        revieweeId: seller.id,
        revieweeRole: 'seller',
        reviewerRole: 'buyer',
        rating: 5,
        comment: 'Kept and seen',
      },
    });
    expect(posted.statusCode, posted.body).toBe(201);
    const after = await readTwice<{ totalReviews: number; reviews: { comment: string }[] }>(url);
    expect(after.totalReviews).toBe(before.totalReviews + 1);
    expect(after.reviews[0]?.comment).toBe('Kept and seen');
  });
});

describe('pickup slots', () => {
  type Slot = { datetime: string; label: string };
  let slotSeller: TestUser;
  const url = () => `/api/availability/slots/${slotSeller.id}`;
  const slots = () => get(url()).then((r) => r.json<Slot[]>());

  beforeAll(async () => {
    slotSeller = await signedInAs(t, 'seller');
  });

  it('show a schedule added and a blackout date on the next read', async () => {
    clock = new Date('2026-12-07T15:50:00Z');
    expect(await readTwice<Slot[]>(url())).toEqual([]);
    for (const dayOfWeek of [0, 1, 2, 3, 4, 5, 6]) {
      const added = await as(t, slotSeller, {
        method: 'POST',
        url: '/api/availability/schedules',
        payload: { dayOfWeek, startTime: '09:00', endTime: '17:00' },
      });
      expect(added.statusCode, added.body).toBe(201);
    }
    const open = await readTwice<Slot[]>(url());
    expect(open[0]?.datetime).toBe('2026-12-07T17:00:00.000Z');
    expect(open.some((s) => s.datetime.startsWith('2026-12-08'))).toBe(true);

    const blackout = await as(t, slotSeller, {
      method: 'POST',
      url: '/api/availability/blackouts',
      payload: { startDate: '2026-12-08', endDate: '2026-12-08' },
    });
    expect(blackout.statusCode, blackout.body).toBe(201);
    const closed = await readTwice<Slot[]>(url());
    expect(closed.some((s) => s.datetime.startsWith('2026-12-08'))).toBe(false);
  });

  it('never offers a slot once it is less than an hour away, nor misses the new day at midnight', async () => {
    clock = new Date('2026-12-07T15:50:00Z');
    expect((await readTwice<Slot[]>(url()))[0]?.datetime).toBe('2026-12-07T17:00:00.000Z');
    // 9:59:59.999: 11:00 is still an hour away, and the kept answer is sent.
    clock = new Date('2026-12-07T15:59:59.999Z');
    expect((await readTwice<Slot[]>(url()))[0]?.datetime).toBe('2026-12-07T17:00:00.000Z');
    // One millisecond later it is not: the kept answer is not sent.
    clock = new Date('2026-12-07T16:00:00.001Z');
    expect((await slots())[0]?.datetime).toBe('2026-12-07T17:30:00.000Z');

    // 23:59 in Chicago: the fourteen days end on 20 December; at midnight the 21st comes in.
    clock = new Date('2026-12-08T05:59:00Z');
    const lastDay = (list: Slot[]) => list.at(-1)?.datetime.slice(0, 10);
    expect(lastDay(await readTwice<Slot[]>(url()))).toBe('2026-12-20');
    clock = new Date('2026-12-08T06:00:00Z');
    expect(lastDay(await slots())).toBe('2026-12-21');
  });
});

describe('signed-in users kept on the embedded database', () => {
  const me = (user: TestUser) => get('/api/auth/user', user);

  it('end with the session: signed out, or deleted in the database, the next request is a visitor', async () => {
    const user = await signedInAs(t, 'buyer');
    expect((await me(user)).statusCode).toBe(200);
    expect((await as(t, user, { method: 'POST', url: '/api/logout' })).statusCode).toBeLessThan(400);
    expect((await me(user)).statusCode).toBe(401);

    // Not through a request of this app: the database's notice drops the kept user.
    const other = await signedInAs(t, 'buyer');
    expect((await me(other)).statusCode).toBe(200);
    await t.database.db.delete(sessions).where(eq(sessions.userId, other.id));
    expect((await me(other)).statusCode).toBe(401);
  });

  it("answer the current user again before the app's hooks, as the full path did, and see a change at once", async () => {
    const user = await signedInAs(t, 'buyer', { firstName: 'Quick' });
    const first = await me(user);
    expect(first.statusCode).toBe(200);
    const before = throughHooks.length;
    const again = await me(user);
    expect(throughHooks.length, 'answered before the hooks').toBe(before);
    expect(again.body).toBe(first.body);
    const headersOf = (response: typeof first) => {
      const { 'x-request-id': id, date: _date, ...rest } = response.headers;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      return rest;
    };
    expect(headersOf(again)).toEqual(headersOf(first));

    // Written straight to the database: the user's next read shows it.
    await t.database.db.update(users).set({ firstName: 'Renamed' }).where(eq(users.id, user.id));
    expect((await me(user)).json<{ firstName: string }>().firstName).toBe('Renamed');
    expect((await me(user)).json<{ firstName: string }>().firstName).toBe('Renamed');
    // A cookie whose signature does not verify is a visitor's, kept user or not.
    const forged = user.cookie.replace(/\.[^.;]+/, '.forged');
    expect((await as(t, { cookie: forged }, { method: 'GET', url: '/api/auth/user' })).statusCode).toBe(401);
    await t.database.db.delete(sessions).where(eq(sessions.userId, user.id));
    expect((await me(user)).statusCode).toBe(401);

    // An administrator always goes the full way (the two-factor hold decides their roles).
    expect((await me(admin)).statusCode).toBe(200);
    const beforeAdmin = throughHooks.length;
    expect((await me(admin)).statusCode).toBe(200);
    expect(throughHooks.length).toBe(beforeAdmin + 1);
  });

  it("answer the current user in the server's listener, and a signed-out session there no more", async () => {
    const user = await signedInAs(t, 'buyer');
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const read = () => fetch(`${base}/api/auth/user`, { headers: { cookie: user.cookie } });
    const first = await read();
    expect(first.status).toBe(200);
    const firstBody = await first.text();
    const before = throughHooks.length;
    const again = await read();
    expect(await again.text()).toBe(firstBody);
    expect(throughHooks.length, 'answered in the listener').toBe(before);
    expect(again.headers.get('cache-control')).toBe('no-store');
    expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    const out = await fetch(`${base}/api/logout`, { method: 'POST', headers: { cookie: user.cookie } });
    expect(out.status).toBeLessThan(400);
    expect((await read()).status).toBe(401);
  });

  it('change with the account: a role taken away or a suspension is seen on the next request', async () => {
    const user = await signedInAs(t, 'seller');
    expect((await get('/api/seller/products', user)).statusCode).toBe(200);
    await t.database.db
      .update(users)
      .set({ roles: ['buyer'], role: 'buyer' })
      .where(eq(users.id, user.id));
    expect((await get('/api/seller/products', user)).statusCode).toBe(403);
    expect((await me(user)).json<{ roles: string[] }>().roles).toEqual(['buyer']);

    const suspended = await as(t, admin, { method: 'POST', url: `/api/admin/users/${user.id}/suspend` });
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect((await me(user)).statusCode).toBe(401);
  });

  it("show a buyer's new order, and an order's new status, on the next read of their orders", async () => {
    const shopper = await signedInAs(t, 'buyer');
    const address = await createAddress(t, shopper.id);
    const product = await createProduct(t, seller.id, { stock: 5 });
    const statuses = async () =>
      (await get('/api/orders?as=buyer', shopper)).json<{ id: string; status: string }[]>();
    expect(await statuses()).toEqual([]);
    expect(await statuses()).toEqual([]);
    const [order] = await buy(t, shopper, {
      items: [{ productId: product.id, quantity: 1 }],
      isPickup: false,
      deliveryAddressId: address.id,
    });
    if (!order) throw new Error('no order');
    expect((await statuses()).map((o) => o.id)).toEqual([order.id]);
    expect((await statuses()).map((o) => o.status)).toEqual(['pending']);
    // Not through a request of this app: the database's notice drops the kept list.
    await t.database.db.update(orders).set({ status: 'delivered' }).where(eq(orders.id, order.id));
    expect((await statuses()).map((o) => o.status)).toEqual(['delivered']);
  });
});
