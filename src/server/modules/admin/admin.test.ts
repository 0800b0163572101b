import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, like, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import {
  as,
  createTestApp,
  createUser,
  signedInAs,
  type TestApp,
  type TestUser,
} from '../../testing/test-app';
import {
  buy,
  confirm,
  createAddress,
  createProduct,
  startPayment,
  type OrderJson,
  type PaymentJson,
} from '../../testing/commerce';
import { adminActions, categories, orders, products, users } from '../../db/schema';
import type { AdminActivity, AdminDriver, AdminSummary, Page } from '../../../domain/admin';
import { parseCents } from '../../../domain/money';
import { trendWindowsEndingAt } from '../../../domain/trends';
import { rowsOf } from '../../db/rows-of';
import { readSummary } from './admin.queries';

/**
 * The admin area (docs/rules/known-differences.md, Admin): who may call it, the lists paged in the database,
 * role changes, driver verification, categories, commission settings frozen per order, the summary
 * figures and the audit trail.
 */

let t: TestApp;
let admin: TestUser;
let buyer: TestUser;
let seller: TestUser;
let driver: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAs(t, 'admin', { firstName: 'Ada', lastName: 'Admin' });
  buyer = await signedInAs(t, 'buyer');
  seller = await signedInAs(t, 'seller');
  driver = await signedInAs(t, 'driver');
}, 60_000);
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

const get = <T>(user: TestUser, url: string) =>
  as(t, user, { method: 'GET', url }).then((response) => {
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  });

async function activity(): Promise<AdminActivity[]> {
  return (await get<Page<AdminActivity>>(admin, '/api/admin/activity?page=1')).items;
}

describe('who may call the admin area', () => {
  /** Every /api/admin route and every category write the app registers. */
  const adminRoutes = () =>
    t.app.routeTable.filter(
      (route) =>
        route.url.startsWith('/api/admin/') ||
        (route.url.startsWith('/api/categories') && route.method !== 'GET'),
    );

  const requestOf = (route: { method: string; url: string }): InjectOptions => ({
    method: route.method as InjectOptions['method'],
    url: route.url.replace(/:[A-Za-z]+/g, crypto.randomUUID()),
    ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: { name: 'Anything' } }),
  });

  it('lists every admin call', () => {
    const keys = adminRoutes().map((route) => `${route.method} ${route.url}`);
    expect(keys).toEqual(
      expect.arrayContaining([
        'GET /api/admin/summary',
        'GET /api/admin/users',
        'PATCH /api/admin/users/:id/role',
        'GET /api/admin/orders',
        'GET /api/admin/products',
        'GET /api/admin/drivers',
        'PATCH /api/admin/drivers/:id/verify',
        'GET /api/admin/commission-settings',
        'PATCH /api/admin/commission-settings',
        'GET /api/admin/activity',
        'POST /api/categories',
        'PATCH /api/categories/:id',
        'DELETE /api/categories/:id',
      ]),
    );
  });

  it('answers 401 to a visitor and 403 to a buyer, a seller and a driver, and changes nothing', async () => {
    const before = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(categories);
    for (const route of adminRoutes()) {
      const visitor = await t.app.inject(requestOf(route));
      expect(visitor.statusCode, `visitor ${route.method} ${route.url}`).toBe(401);
      for (const user of [buyer, seller, driver]) {
        const response = await as(t, user, requestOf(route));
        expect(response.statusCode, `${route.method} ${route.url}`).toBe(403);
        expect(response.json().message).toMatch(/admin/);
      }
    }
    const after = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(categories);
    expect(after).toEqual(before);
  });

  it('also refuses a user whose header shows another role but who was never granted admin', async () => {
    const sellerAsAdmin = await as(t, seller, {
      method: 'PATCH',
      url: `/api/users/${seller.id}/role`,
      payload: { role: 'admin' },
    });
    expect(sellerAsAdmin.statusCode).toBe(403);
    expect((await as(t, seller, { method: 'GET', url: '/api/admin/users' })).statusCode).toBe(403);
  });
});

describe('PATCH /api/admin/users/{id}/role', () => {
  it('makes another user a seller, and records who did it with the role before and after', async () => {
    const target = await signedInAs(t, 'buyer', { email: `role-${crypto.randomUUID()}@example.com` });
    const response = await as(t, admin, {
      method: 'PATCH',
      url: `/api/admin/users/${target.id}/role`,
      payload: { role: 'seller' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ role: 'seller', roles: ['buyer', 'seller'] });
    const [entry] = await activity();
    expect(entry).toMatchObject({
      action: 'user.role_changed',
      actorId: admin.id,
      actorName: 'Ada Admin',
      targetId: target.id,
      targetLabel: target.email,
      before: { role: 'buyer', roles: ['buyer'] },
      after: { role: 'seller', roles: ['buyer', 'seller'] },
    });
  });

  it("never changes the admin's own row", async () => {
    const response = await as(t, admin, {
      method: 'PATCH',
      url: `/api/admin/users/${admin.id}/role`,
      payload: { role: 'buyer' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('Admins cannot change their own role');
    const [row] = await t.database.db.select().from(users).where(eq(users.id, admin.id));
    expect(row).toMatchObject({ role: 'admin', roles: ['buyer', 'admin'] });
  });
});

describe('GET /api/admin/users', () => {
  it('pages 1,000 users 10 at a time with the right total, newest first', async () => {
    const base = Date.now() - 1_000_000;
    await t.database.db.insert(users).values(
      Array.from({ length: 1000 }, (_, i) => ({
        email: `paged-${String(i).padStart(4, '0')}@paging.example`,
        firstName: 'Paged',
        lastName: `Person${i}`,
        createdAt: new Date(base + i * 1000),
      })),
    );
    const first = await get<Page<{ email: string }>>(admin, '/api/admin/users?search=paging.example');
    expect(first).toMatchObject({ total: 1000, page: 1, pageSize: 10, pageCount: 100 });
    expect(first.items.map((user) => user.email)).toEqual(
      Array.from({ length: 10 }, (_, i) => `paged-${String(999 - i).padStart(4, '0')}@paging.example`),
    );
    const last = await get<Page<{ email: string }>>(admin, '/api/admin/users?search=paging.example&page=100');
    expect(last.items.map((user) => user.email)).toEqual(
      Array.from({ length: 10 }, (_, i) => `paged-${String(9 - i).padStart(4, '0')}@paging.example`),
    );
    const past = await get<Page<unknown>>(admin, '/api/admin/users?search=paging.example&page=101');
    expect(past).toMatchObject({ items: [], total: 1000, pageCount: 100 });
    const all = await get<Page<unknown>>(admin, '/api/admin/users');
    const [count] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(users);
    expect(all.total).toBe(count?.n);
    expect(all.items).toHaveLength(10);
  });

  it('searches by name or email, case-insensitively, and filters by a granted role', async () => {
    const unique = crypto.randomBytes(4).toString('hex');
    const grace = await createUser(t, {
      firstName: 'Grace',
      lastName: `Hopper${unique}`,
      email: `gh-${unique}@navy.example`,
      roles: ['buyer', 'seller'],
      role: 'buyer',
    });
    const byName = await get<Page<{ id: string }>>(admin, `/api/admin/users?search=grace%20hopper${unique}`);
    expect(byName.items.map((user) => user.id)).toEqual([grace.id]);
    const byEmail = await get<Page<{ id: string }>>(admin, `/api/admin/users?search=GH-${unique}%40NAVY`);
    expect(byEmail.items.map((user) => user.id)).toEqual([grace.id]);
    const sellers = await get<Page<{ id: string }>>(admin, `/api/admin/users?search=${unique}&role=seller`);
    expect(sellers.total).toBe(1);
    const drivers = await get<Page<{ id: string }>>(admin, `/api/admin/users?search=${unique}&role=driver`);
    expect(drivers.total).toBe(0);
    // Wildcards are plain text.
    const percent = await get<Page<unknown>>(admin, '/api/admin/users?search=%25');
    expect(percent.total).toBe(0);
  });

  it('answers 400 for a bad page or role, never a 500', async () => {
    for (const query of ['page=0', 'page=abc', 'role=emperor', 'limit=5']) {
      const response = await as(t, admin, { method: 'GET', url: `/api/admin/users?${query}` });
      expect(response.statusCode, query).toBe(400);
    }
  });
});

/** An order row straight into the database (the money adds up, as the check constraints want). */
function orderValues(
  buyerId: string,
  sellerId: string,
  orderNumber: string,
  status: string,
  createdAt: Date,
) {
  return {
    buyerId,
    sellerId,
    orderNumber,
    status,
    productSubtotal: '10.00',
    deliveryFee: '10.00',
    total: '20.00',
    sellerEarnings: '9.00',
    driverEarnings: '9.00',
    purchasePlatformFee: '1.00',
    deliveryPlatformFee: '1.00',
    platformFee: '2.00',
    deliveryAddress: '1 Main St, Springfield, IL 62701',
    createdAt,
    updatedAt: createdAt,
  };
}

describe('GET /api/admin/orders', () => {
  it('pages 1,000 orders 10 at a time, searches by order number and filters by status', async () => {
    const base = Date.now() - 10_000_000;
    await t.database.db
      .insert(orders)
      .values(
        Array.from({ length: 1000 }, (_, i) =>
          orderValues(
            buyer.id,
            seller.id,
            `ORD-PG${String(i).padStart(4, '0')}`,
            i % 4 === 0 ? 'cancelled' : 'pending',
            new Date(base + i * 1000),
          ),
        ),
      );
    const first = await get<Page<{ orderNumber: string; buyerName: string; total: string }>>(
      admin,
      '/api/admin/orders?search=ord-pg',
    );
    expect(first).toMatchObject({ total: 1000, pageSize: 10, pageCount: 100 });
    expect(first.items).toHaveLength(10);
    expect(first.items[0]).toMatchObject({ orderNumber: 'ORD-PG0999', total: '20.00', platformFee: '2.00' });
    const page50 = await get<Page<{ orderNumber: string }>>(admin, '/api/admin/orders?search=ORD-PG&page=50');
    expect(page50.items.map((order) => order.orderNumber)[0]).toBe('ORD-PG0509');
    const cancelled = await get<Page<{ status: string }>>(
      admin,
      '/api/admin/orders?search=ORD-PG&status=cancelled',
    );
    expect(cancelled).toMatchObject({ total: 250, pageCount: 25 });
    expect(cancelled.items.every((order) => order.status === 'cancelled')).toBe(true);
    const one = await get<Page<{ orderNumber: string }>>(admin, '/api/admin/orders?search=pg0042');
    expect(one.items.map((order) => order.orderNumber)).toEqual(['ORD-PG0042']);
    const bad = await as(t, admin, { method: 'GET', url: '/api/admin/orders?status=lost' });
    expect(bad.statusCode).toBe(400);
    await t.database.db.delete(orders).where(like(orders.orderNumber, 'ORD-PG%'));
  });
});

describe('GET /api/admin/products', () => {
  it('searches by name, filters by category and by Active/Inactive (the available flag)', async () => {
    const unique = crypto.randomBytes(3).toString('hex');
    const lamp = await createProduct(t, seller.id, { name: `Lamp ${unique}` });
    const gone = await createProduct(t, seller.id, { name: `Old lamp ${unique}`, available: false });
    await t.database.db.update(products).set({ category: 'Books' }).where(eq(products.id, lamp.id));
    const ids = async (query: string) =>
      (await get<Page<{ id: string }>>(admin, `/api/admin/products?search=lamp%20${unique}&${query}`)).items
        .map((product) => product.id)
        .sort();
    expect(await ids('status=all')).toEqual([lamp.id, gone.id].sort());
    expect(await ids('status=active')).toEqual([lamp.id]);
    expect(await ids('status=inactive')).toEqual([gone.id]);
    expect(await ids('category=Books')).toEqual([lamp.id]);
    expect(await ids('category=All')).toEqual([lamp.id, gone.id].sort());
    const row = (
      await get<Page<Record<string, unknown>>>(admin, `/api/admin/products?search=Old%20lamp%20${unique}`)
    ).items[0];
    expect(row).toMatchObject({ available: false, price: '20.00', sellerName: expect.any(String) });
  });
});

describe('driver verification', () => {
  /** Uploads an image as the driver and saves it as one of their driver images. */
  async function saveDriverImage(user: TestUser, kind: 'vehicle' | 'license' | 'trailer'): Promise<string> {
    const started = await as(t, user, { method: 'POST', url: '/api/objects/upload' });
    expect(started.statusCode).toBe(200);
    const { uploadURL, objectPath } = started.json<{ uploadURL: string; objectPath: string }>();
    const url = new URL(uploadURL);
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
      'base64',
    );
    const put = await t.app.inject({
      method: 'PUT',
      url: url.pathname + url.search,
      payload: png,
      headers: {
        'content-type': 'image/png',
        host: url.host,
        origin: url.origin,
        'sec-fetch-site': 'same-origin',
      },
    });
    expect(put.statusCode).toBe(200);
    const saved = await as(t, user, {
      method: 'PUT',
      url: `/api/drivers/${kind}-image`,
      payload: { imageUrl: objectPath },
    });
    expect(saved.statusCode).toBe(200);
    return objectPath;
  }

  const verify = (user: TestUser, id: string, isVerified: boolean) =>
    as(t, user, { method: 'PATCH', url: `/api/admin/drivers/${id}/verify`, payload: { isVerified } });

  async function driverCard(id: string, email: string): Promise<AdminDriver | undefined> {
    const page = await get<Page<AdminDriver>>(
      admin,
      `/api/admin/drivers?search=${encodeURIComponent(email)}`,
    );
    return page.items.find((item) => item.id === id);
  }

  it('refuses to approve a driver without both the vehicle and the license image (409)', async () => {
    const newcomer = await signedInAs(t, 'driver');
    await saveDriverImage(newcomer, 'vehicle');
    const response = await verify(admin, newcomer.id, true);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(
      'A driver needs both a vehicle image and a license image before they can be approved.',
    );
    const [row] = await t.database.db.select().from(users).where(eq(users.id, newcomer.id));
    expect(row?.isVerified).toBe(false);
  });

  it('shows the images to the admin only, approves, rejects and revokes, each recorded', async () => {
    const candidate = await signedInAs(t, 'driver', { firstName: 'Dana', lastName: 'Driver' });
    const vehicle = await saveDriverImage(candidate, 'vehicle');
    const license = await saveDriverImage(candidate, 'license');
    const trailer = await saveDriverImage(candidate, 'trailer');

    const card = await driverCard(candidate.id, candidate.email);
    expect(card).toMatchObject({
      isVerified: false,
      vehicleImageUrl: vehicle,
      licenseImageUrl: license,
      trailerImageUrl: trailer,
      lastDecision: null,
    });
    for (const image of [vehicle, license, trailer]) {
      expect((await as(t, admin, { method: 'GET', url: image })).statusCode).toBe(200);
      expect((await as(t, candidate, { method: 'GET', url: image })).statusCode).toBe(200);
      expect((await as(t, driver, { method: 'GET', url: image })).statusCode).toBe(404);
      expect((await as(t, buyer, { method: 'GET', url: image })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: image })).statusCode).toBe(404);
    }

    const rejected = await verify(admin, candidate.id, false);
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json()).toMatchObject({ isVerified: false, lastDecision: { decision: 'rejected' } });
    // A second click on Reject changes nothing and records nothing.
    await verify(admin, candidate.id, false);

    const approved = await verify(admin, candidate.id, true);
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({
      isVerified: true,
      lastDecision: { decision: 'approved', adminName: 'Ada Admin' },
    });
    const me = await as(t, candidate, { method: 'GET', url: '/api/auth/user' });
    expect(me.json().isVerified).toBe(true);

    const revoked = await verify(admin, candidate.id, false);
    expect(revoked.json()).toMatchObject({ isVerified: false, lastDecision: { decision: 'revoked' } });

    const recorded = (await activity()).filter((entry) => entry.targetId === candidate.id);
    expect(recorded.map((entry) => [entry.action, entry.before, entry.after])).toEqual([
      ['driver.revoked', { isVerified: true }, { isVerified: false }],
      ['driver.approved', { isVerified: false }, { isVerified: true }],
      ['driver.rejected', { isVerified: false }, { isVerified: false }],
    ]);
  });

  it('lists drivers only, waiting ones first, and filters pending or verified', async () => {
    const page = await get<Page<AdminDriver>>(admin, '/api/admin/drivers?status=pending');
    expect(page.items.every((item) => !item.isVerified)).toBe(true);
    const verified = await get<Page<AdminDriver>>(admin, '/api/admin/drivers?status=verified');
    expect(verified.items.every((item) => item.isVerified)).toBe(true);
    const everyone = await get<Page<AdminDriver>>(
      admin,
      `/api/admin/drivers?search=${encodeURIComponent(buyer.email)}`,
    );
    expect(everyone.total).toBe(0);
  });

  it("answers 404 for a user who is not a driver, and 403 for the admin's own row", async () => {
    const notDriver = await verify(admin, buyer.id, true);
    expect(notDriver.statusCode).toBe(404);
    expect(notDriver.json().message).toBe('Driver not found');
    expect((await verify(admin, crypto.randomUUID(), false)).statusCode).toBe(404);
    const adminDriver = await signedInAs(t, 'admin');
    await t.database.db
      .update(users)
      .set({ roles: ['buyer', 'driver', 'admin'] })
      .where(eq(users.id, adminDriver.id));
    const self = await verify(adminDriver, adminDriver.id, true);
    expect(self.statusCode).toBe(403);
    const extra = await as(t, admin, {
      method: 'PATCH',
      url: `/api/admin/drivers/${driver.id}/verify`,
      payload: { isVerified: true, licenseImageUrl: '/x' },
    });
    expect(extra.statusCode).toBe(400);
  });
});

describe('categories', () => {
  const create = (name: unknown) =>
    as(t, admin, { method: 'POST', url: '/api/categories', payload: { name } });
  const rename = (id: string, name: unknown) =>
    as(t, admin, { method: 'PATCH', url: `/api/categories/${id}`, payload: { name } });
  const remove = (id: string) => as(t, admin, { method: 'DELETE', url: `/api/categories/${id}` });
  const publicList = async () =>
    (await t.app.inject({ method: 'GET', url: '/api/categories' })).json<{ id: string; name: string }[]>();

  it('adds a category with a trimmed name; an empty or duplicate name (any case) is refused', async () => {
    const created = await create('  Garden Tools  ');
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Garden Tools' });
    expect((await publicList()).map((category) => category.name)).toContain('Garden Tools');

    const blank = await create('   ');
    expect(blank.statusCode).toBe(400);
    expect(blank.json().fields).toEqual({ name: 'Name is required' });

    const duplicate = await create('garden TOOLS');
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().message).toBe('A category named "Garden Tools" already exists');
  });

  it('renames a category and the products that use it, in one go', async () => {
    const created = (await create(`Lamps ${crypto.randomBytes(3).toString('hex')}`)).json<{
      id: string;
      name: string;
    }>();
    const product = await createProduct(t, seller.id);
    await t.database.db.update(products).set({ category: created.name }).where(eq(products.id, product.id));
    const renamed = await rename(created.id, '  Lighting  ');
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toEqual({ id: created.id, name: 'Lighting' });
    const [row] = await t.database.db.select().from(products).where(eq(products.id, product.id));
    expect(row?.category).toBe('Lighting');
    const catalog = await t.app.inject({ method: 'GET', url: '/api/products?category=Lighting' });
    expect(catalog.json<{ id: string }[]>().map((item) => item.id)).toContain(product.id);

    // Onto another category's name, whatever the case: 409, and nothing changes.
    const clash = await rename(created.id, 'garden tools');
    expect(clash.statusCode).toBe(409);
    const [unchanged] = await t.database.db.select().from(products).where(eq(products.id, product.id));
    expect(unchanged?.category).toBe('Lighting');
    // Its own name in another case is fine.
    expect((await rename(created.id, 'LIGHTING')).json()).toMatchObject({ name: 'LIGHTING' });

    const [entry] = await activity();
    expect(entry).toMatchObject({
      action: 'category.renamed',
      before: { name: 'Lighting' },
      after: { name: 'LIGHTING', products: '1' },
    });
  });

  it('refuses a look-alike of another name as a duplicate (docs/rules/running.md, Bad input and failure)', async () => {
    // "Books" is one of the marketplace's first categories.
    const lookAlikes = [
      'Books\u200B',
      'Bo\u200Boks',
      'B\u043Eoks',
      'B\u043E\u043Eks',
      '\uFF22\uFF4F\uFF4F\uFF4B\uFF53',
      'b\u200Dooks',
    ];
    for (const name of lookAlikes) {
      const refused = await create(name);
      expect(refused.statusCode, JSON.stringify(name)).toBe(409);
      expect(refused.json().message).toBe('A category named "Books" already exists');
    }
    const invisible = await create('\u200B\u200B');
    expect(invisible.statusCode).toBe(400);
    expect(invisible.json().fields).toEqual({ name: 'Name is required' });
    const overridden = await create('Books\u202E');
    expect(overridden.statusCode).toBe(400);
    expect(overridden.json().fields).toEqual({
      name: 'Must not contain invisible direction-changing characters',
    });
    const names = (await publicList()).map((category) => category.name);
    expect(names.filter((name) => name.normalize('NFKC').toLowerCase().includes('ks'))).toEqual(['Books']);

    // Renaming onto a look-alike of another category is refused too; of its own name, allowed.
    const unique = crypto.randomBytes(3).toString('hex');
    const created = (await create(`Kettles ${unique}`)).json<{ id: string; name: string }>();
    const clash = await rename(created.id, 'B\u043Eoks');
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toBe('A category named "Books" already exists');
    const ownLookAlike = await rename(created.id, `KETTLES ${unique}\u200B`);
    expect(ownLookAlike.statusCode).toBe(200);
    expect(ownLookAlike.json()).toEqual({ id: created.id, name: `KETTLES ${unique}` });
  });

  it('refuses to delete a category that products use, saying how many', async () => {
    const created = (await create(`Used ${crypto.randomBytes(3).toString('hex')}`)).json<{
      id: string;
      name: string;
    }>();
    for (let i = 0; i < 3; i++) {
      const product = await createProduct(t, seller.id, { available: i !== 0 });
      await t.database.db.update(products).set({ category: created.name }).where(eq(products.id, product.id));
    }
    const refused = await remove(created.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      `3 products use the category "${created.name}". Move them to another category before deleting it.`,
    );
    expect((await publicList()).map((category) => category.id)).toContain(created.id);
  });

  it('lists categories by name with how many products use each, 10 a page', async () => {
    const unique = crypto.randomBytes(3).toString('hex');
    const names = Array.from({ length: 12 }, (_, i) => `Counted ${unique} ${String(i).padStart(2, '0')}`);
    for (const name of names) expect((await create(name)).statusCode).toBe(201);
    for (let i = 0; i < 2; i++) {
      const product = await createProduct(t, seller.id, { available: i === 0 });
      await t.database.db.update(products).set({ category: names[1] }).where(eq(products.id, product.id));
    }
    const first = await get<Page<{ name: string; productCount: number }>>(
      admin,
      `/api/admin/categories?search=counted%20${unique}`,
    );
    expect(first).toMatchObject({ total: 12, pageCount: 2 });
    expect(first.items.map((item) => [item.name, item.productCount])).toEqual(
      names.slice(0, 10).map((name, i) => [name, i === 1 ? 2 : 0]),
    );
    const second = await get<Page<{ name: string }>>(
      admin,
      `/api/admin/categories?search=COUNTED%20${unique}&page=2`,
    );
    expect(second.items.map((item) => item.name)).toEqual(names.slice(10));
  });

  it('deletes an unused category, records it, and answers 404 for it afterwards', async () => {
    const created = (await create('Short-lived')).json<{ id: string }>();
    const deleted = await remove(created.id);
    expect(deleted.statusCode).toBe(204);
    expect((await publicList()).map((category) => category.id)).not.toContain(created.id);
    expect((await remove(created.id)).statusCode).toBe(404);
    expect((await rename(created.id, 'Back')).statusCode).toBe(404);
    const [entry] = await activity();
    expect(entry).toMatchObject({
      action: 'category.deleted',
      targetLabel: 'Short-lived',
      before: { name: 'Short-lived' },
      after: null,
    });
  });
});

const DEFAULTS = {
  baseCommissionRate: '0.1000',
  minCommissionRate: '0.0200',
  salesPriceTierAmount: '500.00',
  salesPriceTierReduction: '0.0100',
  deliveryFeeTierAmount: '200.00',
  deliveryFeeTierReduction: '0.0100',
  loyaltyTierAmount: '1000.00',
  loyaltyTierReduction: '0.0100',
};

const saveSettings = (user: TestUser, payload: unknown) =>
  as(t, user, {
    method: 'PATCH',
    url: '/api/admin/commission-settings',
    payload: payload as InjectOptions['payload'],
  });

describe('commission settings', () => {
  it('answers 400 with a message per field for values out of range or with too many decimals', async () => {
    const response = await saveSettings(admin, {
      ...DEFAULTS,
      baseCommissionRate: '1.5',
      minCommissionRate: '-0.01',
      salesPriceTierAmount: '12.345',
      salesPriceTierReduction: '0.00001',
      deliveryFeeTierAmount: 'abc',
      deliveryFeeTierReduction: 5,
      loyaltyTierAmount: '',
      loyaltyTierReduction: '1e-2',
    });
    expect(response.statusCode).toBe(400);
    const fields = response.json<{ fields: Record<string, string> }>().fields;
    expect(Object.keys(fields).sort()).toEqual(Object.keys(DEFAULTS).sort());
    expect(fields.baseCommissionRate).toBe('Must be a number from 0 to 1 with at most 4 decimals');
    expect(fields.salesPriceTierAmount).toBe('Must be an amount of at least 0 with at most 2 decimals');
    expect(await get(admin, '/api/admin/commission-settings')).toEqual(DEFAULTS);
  });

  it('refuses a minimum above the base rate, a missing field and an unknown one', async () => {
    const above = await saveSettings(admin, { ...DEFAULTS, minCommissionRate: '0.2000' });
    expect(above.statusCode).toBe(400);
    expect(above.json().fields).toEqual({
      minCommissionRate: 'The minimum rate cannot be above the base rate',
    });
    const { loyaltyTierReduction: _missing, ...partial } = DEFAULTS;
    expect((await saveSettings(admin, partial)).statusCode).toBe(400);
    expect((await saveSettings(admin, { ...DEFAULTS, id: 2 })).statusCode).toBe(400);
  });

  it('applies new settings to orders paid after the change; earlier orders keep their rates', async () => {
    const shopSeller = await signedInAs(t, 'seller');
    const shopBuyer = await signedInAs(t, 'buyer');
    const address = await createAddress(t, shopBuyer.id);
    await createAddress(t, shopSeller.id);
    const product = await createProduct(t, shopSeller.id, { price: '100.00', stock: 50 });
    const checkout = {
      items: [{ productId: product.id, quantity: 1 }],
      isPickup: false,
      deliveryAddressId: address.id,
    };

    const [before] = await buy(t, shopBuyer, checkout);
    // Started before the change, paid after it: priced when paid.
    const started = await startPayment(t, shopBuyer, checkout);
    expect(started.statusCode).toBe(201);

    const saved = await saveSettings(admin, {
      ...DEFAULTS,
      baseCommissionRate: '0.15',
      minCommissionRate: '0.05',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ ...DEFAULTS, baseCommissionRate: '0.1500', minCommissionRate: '0.0500' });
    expect((await t.app.inject({ method: 'GET', url: '/api/commission-settings' })).json()).toMatchObject({
      baseCommissionRate: '0.1500',
    });

    const paid = await confirm(t, shopBuyer, started.json<PaymentJson>().paymentId);
    expect(paid.statusCode).toBe(200);
    const [after] = paid.json<{ orders: OrderJson[] }>().orders;
    if (!before || !after) throw new Error('no orders');

    const reread = async (id: string) => get<OrderJson>(admin, `/api/orders/${id}`);
    const old = await reread(before.id);
    const fresh = await reread(after.id);
    // 100.00 of goods, 10.00 driver delivery: 10% then 15% on both.
    expect(old).toMatchObject({
      salesCommissionRate: '0.1000',
      deliveryCommissionRate: '0.1000',
      purchasePlatformFee: '10.00',
      deliveryPlatformFee: '1.00',
      platformFee: '11.00',
    });
    expect(fresh).toMatchObject({
      salesCommissionRate: '0.1500',
      deliveryCommissionRate: '0.1500',
      purchasePlatformFee: '15.00',
      deliveryPlatformFee: '1.50',
      platformFee: '16.50',
    });
    for (const order of [old, fresh]) {
      const shares =
        parseCents(String(order.sellerEarnings)) +
        parseCents(order.driverEarnings) +
        parseCents(String(order.platformFee));
      expect(shares).toBe(parseCents(String(order.total)));
    }

    const [entry] = await activity();
    expect(entry).toMatchObject({
      action: 'commission.updated',
      before: DEFAULTS,
      after: { ...DEFAULTS, baseCommissionRate: '0.1500', minCommissionRate: '0.0500' },
    });
    expect((await saveSettings(admin, DEFAULTS)).statusCode).toBe(200);
  });
});

describe('GET /api/admin/summary', () => {
  it('counts users, orders and products, and sums the fees of orders not cancelled', async () => {
    const fresh = await createTestApp();
    try {
      const boss = await signedInAs(fresh, 'admin');
      const shopper = await createUser(fresh, { roles: ['buyer'] });
      const shop = await createUser(fresh, { roles: ['buyer', 'seller'] });
      await createProduct(fresh, shop.id);
      await fresh.database.db
        .insert(orders)
        .values([
          orderValues(shopper.id, shop.id, 'ORD-SUM001', 'pending', new Date()),
          orderValues(shopper.id, shop.id, 'ORD-SUM002', 'delivered', new Date()),
          orderValues(shopper.id, shop.id, 'ORD-SUM003', 'cancelled', new Date()),
        ]);
      const response = await as(fresh, boss, { method: 'GET', url: '/api/admin/summary' });
      expect(response.json()).toEqual({
        totalUsers: 3,
        totalOrders: 3,
        totalProducts: 1,
        totalRevenue: '4.00',
        grossOrderValue: '40.00',
        // Everything is from this week: nothing the week before to compare with.
        trends: { users: null, orders: null, products: null, revenue: null },
      });
    } finally {
      await fresh.close();
    }
  });

  it("gives each card's change over the last 7 days against the 7 before, on the server's clock", async () => {
    const now = new Date('2030-01-15T12:00:00.000Z');
    const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 60 * 60 * 1000);
    const fresh = await createTestApp({ now: () => now });
    try {
      const boss = await signedInAs(fresh, 'admin');
      const shopper = await createUser(fresh, { roles: ['buyer'] });
      const shop = await createUser(fresh, { roles: ['buyer', 'seller'] });
      const db = fresh.database.db;
      // Users: two signed up last week, one this week (−50%).
      await db
        .update(users)
        .set({ createdAt: daysAgo(10) })
        .where(inArray(users.id, [boss.id, shopper.id]));
      await db
        .update(users)
        .set({ createdAt: daysAgo(1) })
        .where(eq(users.id, shop.id));
      // Products: one listed this week, none the week before (no percent).
      const product = await createProduct(fresh, shop.id);
      await db
        .update(products)
        .set({ createdAt: daysAgo(3) })
        .where(eq(products.id, product.id));
      // Orders: three this week (one cancelled), two last week, one older than both (+50%); fees of
      // the ones not cancelled: 4.00 this week against 4.00 (0%).
      await db
        .insert(orders)
        .values([
          orderValues(shopper.id, shop.id, 'ORD-TRD001', 'pending', daysAgo(1)),
          orderValues(shopper.id, shop.id, 'ORD-TRD002', 'delivered', daysAgo(6)),
          orderValues(shopper.id, shop.id, 'ORD-TRD003', 'cancelled', daysAgo(2)),
          orderValues(shopper.id, shop.id, 'ORD-TRD004', 'delivered', daysAgo(8)),
          orderValues(shopper.id, shop.id, 'ORD-TRD005', 'pending', daysAgo(13)),
          orderValues(shopper.id, shop.id, 'ORD-TRD006', 'delivered', daysAgo(20)),
        ]);
      const response = await as(fresh, boss, { method: 'GET', url: '/api/admin/summary' });
      expect(response.statusCode).toBe(200);
      expect(response.json<AdminSummary>().trends).toEqual({
        users: -50,
        orders: 50,
        products: null,
        revenue: 0,
      });
    } finally {
      await fresh.close();
    }
  });
  it("keeps the orders' totals exact through inserts, status changes, new amounts and deletes", async () => {
    // The summary reads kept totals (docs/decisions/0027-kept-order-totals.md, What is kept): after
    // each kind of change they must say what summing the orders themselves says.
    const fresh = await createTestApp();
    try {
      const boss = await signedInAs(fresh, 'admin');
      const shopper = await createUser(fresh, { roles: ['buyer'] });
      const shop = await createUser(fresh, { roles: ['buyer', 'seller'] });
      const db = fresh.database.db;
      const summed = async () => {
        const [row] = await db
          .select({
            orders: sql<number>`count(*)::int`,
            revenue: sql<string>`coalesce(sum(${orders.platformFee}) filter (where ${orders.status} <> 'cancelled'), 0)::text`,
            gross: sql<string>`coalesce(sum(${orders.total}) filter (where ${orders.status} <> 'cancelled'), 0)::text`,
          })
          .from(orders);
        return {
          totalOrders: row?.orders,
          totalRevenue: (parseCents(row?.revenue ?? '0') / 100).toFixed(2),
          grossOrderValue: (parseCents(row?.gross ?? '0') / 100).toFixed(2),
        };
      };
      const shown = async () => {
        const response = await as(fresh, boss, { method: 'GET', url: '/api/admin/summary' });
        expect(response.statusCode, response.body).toBe(200);
        const { totalOrders, totalRevenue, grossOrderValue } = response.json<AdminSummary>();
        return { totalOrders, totalRevenue, grossOrderValue };
      };
      const numbers = ['ORD-KPT001', 'ORD-KPT002', 'ORD-KPT003', 'ORD-KPT004', 'ORD-KPT005'];
      await db
        .insert(orders)
        .values(
          numbers.map((number, i) =>
            orderValues(shopper.id, shop.id, number, i < 3 ? 'pending' : 'delivered', new Date()),
          ),
        );
      await db.insert(orders).values(orderValues(shopper.id, shop.id, 'ORD-KPT006', 'cancelled', new Date()));
      expect(await shown()).toEqual({ totalOrders: 6, totalRevenue: '10.00', grossOrderValue: '100.00' });
      expect(await shown()).toEqual(await summed());

      // Cancelled, delivered, new amounts, a change that moves no money, a delete, one statement for two
      // rows.
      await db.update(orders).set({ status: 'cancelled' }).where(eq(orders.orderNumber, 'ORD-KPT001'));
      await db.update(orders).set({ status: 'delivered' }).where(eq(orders.orderNumber, 'ORD-KPT002'));
      await db
        .update(orders)
        .set({
          productSubtotal: '20.00',
          deliveryFee: '10.50',
          total: '30.50',
          sellerEarnings: '18.00',
          purchasePlatformFee: '2.00',
          platformFee: '3.50',
          deliveryPlatformFee: '1.50',
          driverEarnings: '9.00',
        })
        .where(eq(orders.orderNumber, 'ORD-KPT003'));
      await db
        .update(orders)
        .set({ deliveryNotes: 'Ring twice' })
        .where(eq(orders.orderNumber, 'ORD-KPT004'));
      await db.delete(orders).where(eq(orders.orderNumber, 'ORD-KPT005'));
      await db
        .update(orders)
        .set({ status: 'pending' })
        .where(inArray(orders.orderNumber, ['ORD-KPT004', 'ORD-KPT006']));
      expect(await shown()).toEqual({ totalOrders: 5, totalRevenue: '9.50', grossOrderValue: '90.50' });
      expect(await shown()).toEqual(await summed());
    } finally {
      await fresh.close();
    }
  });
});

describe('the summary read at once (docs/decisions/0030-ten-times-the-data.md, The summary in one read)', () => {
  it('keeps its figures exact through inserts, updates, deletes, truncates and statements at once', async () => {
    // Not on an hour: the weeks' ends fall inside hours, whose parts are counted, not kept.
    const now = new Date('2030-01-15T12:34:56.789Z');
    const windows = trendWindowsEndingAt(now);
    const fresh = await createTestApp({ now: () => now });
    try {
      const db = fresh.database.db;
      const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 60 * 60 * 1000);
      /** The figures the summary reads from what is kept. */
      const kept = async () => {
        const { users: userCount, weeks } = await readSummary(db, windows);
        return {
          users: userCount,
          usersWeeks: [weeks.users.thisWeek, weeks.users.lastWeek],
          productsWeeks: [weeks.products.thisWeek, weeks.products.lastWeek],
          ordersWeeks: [weeks.orders.thisWeek, weeks.orders.lastWeek],
          feesWeeks: [parseCents(weeks.revenue.thisWeek), parseCents(weeks.revenue.lastWeek)],
        };
      };
      /** The same figures counted from the tables themselves. */
      const recounted = async () => {
        const range = (from: Date, to: Date) =>
          sql`created_at >= ${from.toISOString()}::timestamptz and created_at < ${to.toISOString()}::timestamptz`;
        const thisWeek = range(windows.thisWeekFrom, windows.to);
        const lastWeek = range(windows.lastWeekFrom, windows.thisWeekFrom);
        const weeksOf = async (table: string) => {
          const [row] = await rowsOf<{ n: number; now: number; before: number }>(
            db,
            sql`select count(*)::int as n, count(*) filter (where ${thisWeek})::int as now,
              count(*) filter (where ${lastWeek})::int as before from ${sql.identifier(table)}`,
          );
          return row ?? { n: -1, now: -1, before: -1 };
        };
        const [fees] = await rowsOf<{ now: string; before: string }>(
          db,
          sql`select coalesce(sum(platform_fee) filter (where status <> 'cancelled' and ${thisWeek}), 0)::text as now,
            coalesce(sum(platform_fee) filter (where status <> 'cancelled' and ${lastWeek}), 0)::text as before
            from orders`,
        );
        const [u, p, o] = [await weeksOf('users'), await weeksOf('products'), await weeksOf('orders')];
        return {
          users: u.n,
          usersWeeks: [u.now, u.before],
          productsWeeks: [p.now, p.before],
          ordersWeeks: [o.now, o.before],
          feesWeeks: [parseCents(fees?.now ?? 'x'), parseCents(fees?.before ?? 'x')],
        };
      };
      const expectExact = async () => expect(await kept()).toEqual(await recounted());

      // Users, products and orders at times across the two weeks, on and off the hours, and later in
      // the hour that ends the weeks (after the server's clock).
      const times = [0.1, 0.5, 1, 5.25, 24, 167.9, 168, 168.4, 200, 335.99, 336, 340, -0.2];
      const shop = await createUser(fresh, { roles: ['buyer', 'seller'] });
      const shopper = await createUser(fresh, { roles: ['buyer'] });
      await db.update(users).set({ createdAt: hoursAgo(400) });
      const people = await db
        .insert(users)
        .values(times.map((hours, i) => ({ email: `kept-${i}@example.com`, createdAt: hoursAgo(hours) })))
        .returning({ id: users.id });
      const listed = [];
      for (const hours of times) {
        const product = await createProduct(fresh, shop.id);
        await db
          .update(products)
          .set({ createdAt: hoursAgo(hours) })
          .where(eq(products.id, product.id));
        listed.push(product.id);
      }
      await db
        .insert(orders)
        .values(
          times.map((hours, i) =>
            orderValues(shopper.id, shop.id, `ORD-HRS${i}`, i % 3 ? 'pending' : 'cancelled', hoursAgo(hours)),
          ),
        );
      await expectExact();
      expect((await kept()).usersWeeks).toEqual([7, 4]);

      // Moved in time (one statement, many rows), cancelled, paid again, a new fee, deleted.
      await db
        .update(users)
        .set({ createdAt: hoursAgo(2.5) })
        .where(inArray(users.id, [people[7]?.id ?? '', people[9]?.id ?? '']));
      await db
        .update(products)
        .set({ createdAt: hoursAgo(169) })
        .where(inArray(products.id, listed.slice(0, 4)));
      await db
        .update(orders)
        .set({ status: 'cancelled' })
        .where(inArray(orders.orderNumber, ['ORD-HRS1', 'ORD-HRS2']));
      await db.update(orders).set({ status: 'delivered' }).where(eq(orders.orderNumber, 'ORD-HRS3'));
      await db
        .update(orders)
        .set({ sellerEarnings: '7.75', purchasePlatformFee: '2.25', platformFee: '3.25' })
        .where(eq(orders.orderNumber, 'ORD-HRS4'));
      await db
        .update(orders)
        .set({
          createdAt: hoursAgo(30),
          sellerEarnings: '9.90',
          purchasePlatformFee: '0.60',
          deliveryPlatformFee: '0.50',
          platformFee: '1.10',
        })
        .where(inArray(orders.orderNumber, ['ORD-HRS5', 'ORD-HRS6', 'ORD-HRS8']));
      await db.update(orders).set({ deliveryNotes: 'Ring twice' });
      await db.delete(orders).where(eq(orders.orderNumber, 'ORD-HRS7'));
      await db.delete(products).where(eq(products.id, listed[5] ?? ''));
      await db.delete(users).where(inArray(users.id, [people[0]?.id ?? '', people[6]?.id ?? '']));
      await expectExact();

      // Statements at once, each in its own transaction: sign-ups, listings, orders and deletes.
      await Promise.all(
        [0, 1, 2, 3].map((k) =>
          db.transaction(async (tx) => {
            await tx.insert(users).values(
              [1, 2, 3].map((j) => ({
                email: `at-once-${k}-${j}@example.com`,
                createdAt: hoursAgo(k * 50 + j),
              })),
            );
            await tx
              .insert(orders)
              .values(orderValues(shopper.id, shop.id, `ORD-ONCE${k}`, 'pending', hoursAgo(k * 40 + 0.3)));
            await tx.delete(users).where(eq(users.email, `at-once-${k}-2@example.com`));
          }),
        ),
      );
      await expectExact();
      expect((await kept()).users).toBe(2 + times.length - 2 + 4 * 2);

      // Emptied, then filled again.
      await db.execute(sql`truncate orders cascade`);
      await expectExact();
      await db.execute(sql`truncate users cascade`);
      expect(await kept()).toEqual({
        users: 0,
        usersWeeks: [0, 0],
        productsWeeks: [0, 0],
        ordersWeeks: [0, 0],
        feesWeeks: [0, 0],
      });
      await db.insert(users).values({ email: 'after-truncate@example.com', createdAt: hoursAgo(3) });
      await expectExact();
    } finally {
      await fresh.close();
    }
  });
});

describe('the audit trail', () => {
  it("records an admin's cancellation, not a buyer's own", async () => {
    const shopSeller = await signedInAs(t, 'seller');
    const shopBuyer = await signedInAs(t, 'buyer');
    const address = await createAddress(t, shopBuyer.id);
    await createAddress(t, shopSeller.id);
    const product = await createProduct(t, shopSeller.id, { stock: 10 });
    const checkout = {
      items: [{ productId: product.id, quantity: 1 }],
      isPickup: false,
      deliveryAddressId: address.id,
    };
    const [byAdmin] = await buy(t, shopBuyer, checkout);
    const [byBuyer] = await buy(t, shopBuyer, checkout);
    if (!byAdmin || !byBuyer) throw new Error('no orders');
    const cancel = (user: TestUser, id: string) =>
      as(t, user, { method: 'POST', url: `/api/orders/${id}/cancel` });
    expect((await cancel(admin, byAdmin.id)).statusCode).toBe(200);
    expect((await cancel(shopBuyer, byBuyer.id)).statusCode).toBe(200);
    const rows = await t.database.db
      .select()
      .from(adminActions)
      .where(and(eq(adminActions.action, 'order.cancelled')));
    expect(rows.map((row) => [row.targetLabel, row.actorId, row.before, row.after])).toEqual([
      [byAdmin.orderNumber, admin.id, { status: 'pending' }, { status: 'cancelled' }],
    ]);
  });

  it('pages the trail newest first, 10 a page, with who, what, before, after and when', async () => {
    const page = await get<Page<AdminActivity>>(admin, '/api/admin/activity');
    expect(page.pageSize).toBe(10);
    expect(page.items.length).toBeLessThanOrEqual(10);
    const [count] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(adminActions);
    expect(page.total).toBe(count?.n);
    const times = page.items.map((item) => item.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(page.items[0]).toMatchObject({ actorEmail: expect.any(String), createdAt: expect.any(String) });
  });
});

describe('totals at ten times the data (docs/decisions/0030-ten-times-the-data.md, What changed)', () => {
  it("keeps the products' totals exact through inserts, moves, withdrawals, renames and deletes", async () => {
    {
      // Names of this test's own; the totals without a filter are compared with a count of the same
      // table, so other tests' products count on both sides.
      const unique = crypto.randomBytes(3).toString('hex');
      const lamps = `Lamps ${unique}`;
      const rugs = `Rugs ${unique}`;
      const lighting = `Lighting ${unique}`;
      const db = t.database.db;
      const read = async <T>(url: string) => {
        const response = await as(t, admin, { method: 'GET', url });
        expect(response.statusCode, response.body).toBe(200);
        return response.json<T>();
      };
      const create = (name: string) =>
        as(t, admin, { method: 'POST', url: '/api/categories', payload: { name } });
      for (const name of [lamps, rugs]) expect((await create(name)).statusCode).toBe(201);
      const lampsId = (await db.select().from(categories).where(eq(categories.name, lamps)))[0]?.id;

      let renamedTo = lamps;
      /** What every total says, and what counting the products table itself says. */
      const totals = async () => {
        const total = async (query: string) =>
          (await read<Page<unknown>>(`/api/admin/products?${query}`)).total;
        const categoryCounts = Object.fromEntries(
          (
            await read<Page<{ name: string; productCount: number }>>(`/api/admin/categories?search=${unique}`)
          ).items
            .filter((item) => [renamedTo, rugs].includes(item.name))
            .map((item) => [item.name, item.productCount]),
        );
        return {
          all: await total('status=all'),
          active: await total('status=active'),
          inactive: await total('status=inactive'),
          lampsActive: await total(`category=${encodeURIComponent(renamedTo)}&status=active`),
          categories: categoryCounts,
          summary: (await read<{ totalProducts: number }>('/api/admin/summary')).totalProducts,
        };
      };
      const counted = async () => {
        const rows = await db
          .select({
            category: products.category,
            available: products.available,
            n: sql<number>`count(*)::int`,
          })
          .from(products)
          .groupBy(products.category, products.available);
        const sum = (keep: (row: (typeof rows)[number]) => boolean) =>
          rows.filter(keep).reduce((n, row) => n + row.n, 0);
        return {
          all: sum(() => true),
          active: sum((row) => row.available),
          inactive: sum((row) => !row.available),
          lampsActive: sum((row) => row.category === renamedTo && row.available),
          categories: {
            [renamedTo]: sum((row) => row.category === renamedTo),
            [rugs]: sum((row) => row.category === rugs),
          },
          summary: sum(() => true),
        };
      };
      const made = [];
      for (let i = 0; i < 6; i++) made.push(await createProduct(t, seller.id, { available: i !== 5 }));
      const ids = made.map((product) => product.id);
      await db
        .update(products)
        .set({ category: lamps })
        .where(inArray(products.id, ids.slice(0, 3)));
      await db
        .update(products)
        .set({ category: rugs })
        .where(inArray(products.id, ids.slice(3)));
      expect(await totals()).toEqual(await counted());
      expect((await totals()).lampsActive).toBe(3);

      // Withdrawn, moved, a stock change (no count changes), a rename, a delete.
      await db
        .update(products)
        .set({ available: false })
        .where(eq(products.id, ids[0] ?? ''));
      await db
        .update(products)
        .set({ category: rugs, available: true })
        .where(eq(products.id, ids[1] ?? ''));
      await db
        .update(products)
        .set({ stock: 0 })
        .where(eq(products.id, ids[2] ?? ''));
      renamedTo = lighting;
      const renamed = await as(t, admin, {
        method: 'PATCH',
        url: `/api/categories/${lampsId}`,
        payload: { name: renamedTo },
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      await db.delete(products).where(eq(products.id, ids[4] ?? ''));
      const after = await totals();
      expect(after).toEqual(await counted());
      expect(after).toMatchObject({ lampsActive: 1, categories: { [renamedTo]: 2, [rugs]: 3 } });
    }
  });

  it('counts a searched list up to 1,000 rows past the page and says when there are more', async () => {
    const unique = `Plenty${crypto.randomBytes(3).toString('hex')}`;
    await t.database.db.execute(sql`
      insert into products (seller_id, name, description, price, category, stock)
      select ${seller.id}::uuid, ${unique} || ' ' || i, 'Many alike', 5.00, 'Furniture', 1
      from generate_series(1, 1005) i`);
    const search = `/api/admin/products?search=${unique}`;
    const first = await get<Page<{ id: string }>>(admin, search);
    expect(first).toMatchObject({ total: 1000, pageCount: 100, totalIsLowerBound: true });
    expect(first.items).toHaveLength(10);
    // From the second page on, 1,000 rows past its start reach the end: the count is exact.
    const second = await get<Page<{ id: string }>>(admin, `${search}&page=2`);
    expect(second).toMatchObject({ total: 1005, pageCount: 101, totalIsLowerBound: false });
    const last = await get<Page<{ id: string }>>(admin, `${search}&page=101`);
    expect(last.items).toHaveLength(5);
    // A short page ends the list; past the end, the count still says how many there are.
    expect(last).toMatchObject({ total: 1005, pageCount: 101, totalIsLowerBound: false });
    const past = await get<Page<{ id: string }>>(admin, `${search}&page=102`);
    expect(past).toMatchObject({ items: [], total: 1005, pageCount: 101, totalIsLowerBound: false });
    // A list without a search is counted exactly however long it is.
    expect((await get<Page<unknown>>(admin, '/api/admin/products')).totalIsLowerBound).toBe(false);
  });
});
