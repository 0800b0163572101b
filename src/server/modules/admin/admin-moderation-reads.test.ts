import crypto from 'node:crypto';
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
import { createAddress, createProduct } from '../../testing/commerce';
import { orders, products, users } from '../../db/schema';
import type { AdminOrder, AdminUserDetail, Page } from '../../../domain/admin';

/**
 * The admin's moderation reads (docs/rules/known-differences.md, Admin): a user's details with their orders
 * in each part, the order search (parties, days of the marketplace time zone), the flag of an open
 * order whose party is suspended, and the CSV exports of the three lists.
 */

let t: TestApp;
let admin: TestUser;
let buyer: TestUser;
let seller: TestUser;
let driver: TestUser;

beforeAll(async () => {
  t = await createTestApp({ env: { MARKETPLACE_TZ: 'America/Chicago' } });
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

const tagOf = () => crypto.randomBytes(3).toString('hex');

/** An order row straight into the database, the money adding up as the check constraints want. */
async function insertOrder(values: {
  buyerId: string;
  sellerId: string;
  driverId?: string | null;
  orderNumber: string;
  status?: string;
  createdAt: Date;
}) {
  const [row] = await t.database.db
    .insert(orders)
    .values({
      buyerId: values.buyerId,
      sellerId: values.sellerId,
      driverId: values.driverId ?? null,
      orderNumber: values.orderNumber,
      status: values.status ?? 'pending',
      productSubtotal: '30.00',
      deliveryFee: '10.00',
      total: '40.00',
      sellerEarnings: '27.00',
      driverEarnings: '9.00',
      purchasePlatformFee: '3.00',
      deliveryPlatformFee: '1.00',
      platformFee: '4.00',
      deliveryAddress: '1 Main St, Springfield, IL 62701',
      createdAt: values.createdAt,
      updatedAt: values.createdAt,
    })
    .returning();
  if (!row) throw new Error('no order row');
  return row;
}

const suspend = (userId: string) =>
  t.database.db
    .update(users)
    .set({ suspendedAt: new Date('2026-02-01T12:00:00Z') })
    .where(eq(users.id, userId));

describe('GET /api/admin/users/{id}', () => {
  it("shows a user's roles, documents on file, payout account, addresses and their orders in each part", async () => {
    const tag = tagOf();
    const everyone = await createUser(t, {
      firstName: 'Mo',
      lastName: `Many${tag}`,
      roles: ['buyer', 'seller', 'driver'],
      role: 'seller',
      isVerified: true,
    });
    await t.database.db
      .update(users)
      .set({
        vehicleImageUrl: `/objects/uploads/${crypto.randomUUID()}`,
        licenseImageUrl: `/objects/uploads/${crypto.randomUUID()}`,
        stripeAccountId: `acct_${tag}`,
        stripeAccountStatus: 'pending',
        stripeOnboardingComplete: true,
        payoutsEnabled: false,
      })
      .where(eq(users.id, everyone.id));
    await createAddress(t, everyone.id);
    await createAddress(t, everyone.id, false);
    const base = Date.parse('2026-01-01T12:00:00Z');
    for (let i = 0; i < 12; i += 1) {
      await insertOrder({
        buyerId: everyone.id,
        sellerId: seller.id,
        orderNumber: `ORD-B${tag}${String(i).padStart(2, '0')}`,
        createdAt: new Date(base + i * 60_000),
      });
    }
    await insertOrder({
      buyerId: buyer.id,
      sellerId: everyone.id,
      orderNumber: `ORD-S${tag}`,
      status: 'delivered',
      createdAt: new Date(base),
    });
    await insertOrder({
      buyerId: buyer.id,
      sellerId: seller.id,
      driverId: everyone.id,
      orderNumber: `ORD-D${tag}1`,
      status: 'assigned',
      createdAt: new Date(base),
    });
    await insertOrder({
      buyerId: buyer.id,
      sellerId: seller.id,
      driverId: everyone.id,
      orderNumber: `ORD-D${tag}2`,
      status: 'delivered',
      createdAt: new Date(base + 60_000),
    });

    const response = await as(t, admin, { method: 'GET', url: `/api/admin/users/${everyone.id}` });
    expect(response.statusCode, response.body).toBe(200);
    const detail = response.json<AdminUserDetail>();
    expect(detail).toMatchObject({
      id: everyone.id,
      email: everyone.email,
      firstName: 'Mo',
      lastName: `Many${tag}`,
      profileImageUrl: null,
      role: 'seller',
      roles: ['buyer', 'seller', 'driver'],
      suspendedAt: null,
      driver: { isVerified: true, hasVehicleImage: true, hasLicenseImage: true, hasTrailerImage: false },
      payouts: { stripeAccountStatus: 'pending', onboardingComplete: true, payoutsEnabled: false },
      addressCount: 2,
    });
    // Which documents are on file, never where they are.
    expect(response.body).not.toContain('/objects/uploads/');
    expect(detail.orders.asBuyer.count).toBe(12);
    expect(detail.orders.asBuyer.latest.map((order) => order.orderNumber)).toEqual(
      Array.from({ length: 10 }, (_, i) => `ORD-B${tag}${String(11 - i).padStart(2, '0')}`),
    );
    expect(detail.orders.asSeller).toMatchObject({
      count: 1,
      latest: [{ orderNumber: `ORD-S${tag}`, status: 'delivered', sellerName: `Mo Many${tag}` }],
    });
    expect(detail.orders.asDriver.count).toBe(2);
    expect(detail.orders.asDriver.latest.map((order) => order.orderNumber)).toEqual([
      `ORD-D${tag}2`,
      `ORD-D${tag}1`,
    ]);
    expect(detail.orders.asDriver.latest[0]).toMatchObject({
      total: '40.00',
      platformFee: '4.00',
      flag: null,
      createdAt: '2026-01-01T12:01:00.000Z',
    });

    await suspend(everyone.id);
    const suspended = await get<AdminUserDetail>(admin, `/api/admin/users/${everyone.id}`);
    expect(suspended.suspendedAt).toBe('2026-02-01T12:00:00.000Z');
    // The open delivery of a suspended driver needs a look; the finished one does not.
    expect(suspended.orders.asDriver.latest.map((order) => order.flag)).toEqual([null, 'Driver suspended']);
  });

  it("answers 404 'User not found' for an unknown id, and 403 to anyone but an admin", async () => {
    const missing = await as(t, admin, { method: 'GET', url: `/api/admin/users/${crypto.randomUUID()}` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('User not found');
    const bad = await as(t, admin, { method: 'GET', url: '/api/admin/users/not-an-id' });
    expect(bad.statusCode).toBe(400);
    for (const user of [buyer, seller, driver]) {
      const response = await as(t, user, { method: 'GET', url: `/api/admin/users/${buyer.id}` });
      expect(response.statusCode).toBe(403);
      expect(response.body).not.toContain(buyer.email);
    }
  });
});

describe('the admin order search', () => {
  /** Three people with names and emails of their own, and orders on known days. */
  async function scene() {
    const tag = tagOf();
    const bea = await createUser(t, {
      firstName: 'Bea',
      lastName: `Buyer${tag}`,
      email: `bea.${tag}@buyers.example`,
    });
    const sol = await createUser(t, {
      firstName: 'Sol',
      lastName: `Seller${tag}`,
      email: `sol.${tag}@sellers.example`,
      roles: ['buyer', 'seller'],
    });
    const dee = await createUser(t, {
      firstName: 'Dee',
      lastName: `Driver${tag}`,
      email: `dee.${tag}@drivers.example`,
      roles: ['buyer', 'driver'],
    });
    const numbers = {
      // Chicago is UTC-6 in January: 05:59 UTC on the 15th is still the 14th there.
      early: `ORD-E${tag}`,
      lateOn14th: `ORD-L${tag}`,
      midnight15th: `ORD-M${tag}`,
      end15th: `ORD-N${tag}`,
      on16th: `ORD-X${tag}`,
    };
    await insertOrder({
      buyerId: bea.id,
      sellerId: sol.id,
      orderNumber: numbers.early,
      createdAt: new Date('2026-01-10T18:00:00Z'),
    });
    await insertOrder({
      buyerId: bea.id,
      sellerId: seller.id,
      orderNumber: numbers.lateOn14th,
      createdAt: new Date('2026-01-15T05:59:59.999Z'),
    });
    await insertOrder({
      buyerId: buyer.id,
      sellerId: sol.id,
      driverId: dee.id,
      orderNumber: numbers.midnight15th,
      status: 'assigned',
      createdAt: new Date('2026-01-15T06:00:00Z'),
    });
    await insertOrder({
      buyerId: bea.id,
      sellerId: sol.id,
      driverId: dee.id,
      orderNumber: numbers.end15th,
      status: 'delivered',
      createdAt: new Date('2026-01-16T05:59:59.999Z'),
    });
    await insertOrder({
      buyerId: bea.id,
      sellerId: sol.id,
      orderNumber: numbers.on16th,
      createdAt: new Date('2026-01-16T06:00:00Z'),
    });
    return { tag, bea, sol, dee, numbers };
  }

  const numbersOf = async (query: string) =>
    (await get<Page<AdminOrder>>(admin, `/api/admin/orders?${query}`)).items.map(
      (order) => order.orderNumber,
    );

  it('finds orders by order number, by buyer email, by seller name and by driver, newest first', async () => {
    const { tag, numbers } = await scene();
    expect(await numbersOf(`search=${`ord-m${tag}`.toUpperCase()}`)).toEqual([numbers.midnight15th]);
    expect(await numbersOf(`buyer=${encodeURIComponent(`BEA.${tag}@BUYERS`)}`)).toEqual([
      numbers.on16th,
      numbers.end15th,
      numbers.lateOn14th,
      numbers.early,
    ]);
    expect(await numbersOf(`seller=${encodeURIComponent(`sol seller${tag}`)}`)).toEqual([
      numbers.on16th,
      numbers.end15th,
      numbers.midnight15th,
      numbers.early,
    ]);
    expect(await numbersOf(`driver=driver${tag}`)).toEqual([numbers.end15th, numbers.midnight15th]);
    expect(await numbersOf(`driver=dee.${tag}%40drivers`)).toEqual([numbers.end15th, numbers.midnight15th]);
    // Filters combine; a party's wildcard is plain text.
    expect(await numbersOf(`buyer=bea.${tag}&seller=sol.${tag}&status=delivered`)).toEqual([numbers.end15th]);
    expect(await numbersOf(`buyer=${encodeURIComponent(`bea%${tag}`)}`)).toEqual([]);
  });

  it('keeps to the days asked for, both ends included, in the marketplace time zone', async () => {
    const { tag, numbers } = await scene();
    const within = async (range: string) => numbersOf(`search=${tag}&${range}`);
    expect(await within('from=2026-01-15&to=2026-01-15')).toEqual([numbers.end15th, numbers.midnight15th]);
    expect(await within('from=2026-01-14&to=2026-01-15')).toEqual([
      numbers.end15th,
      numbers.midnight15th,
      numbers.lateOn14th,
    ]);
    expect(await within('from=2026-01-16')).toEqual([numbers.on16th]);
    expect(await within('to=2026-01-10')).toEqual([numbers.early]);
    expect(await within('from=2026-01-11&to=2026-01-13')).toEqual([]);
  });

  it('answers 400 naming the field for a bad date or a range that ends before it starts', async () => {
    for (const [query, field] of [
      ['from=2026-02-30', 'from'],
      ['to=yesterday', 'to'],
      ['from=2026-01-16&to=2026-01-15', 'to'],
    ] as const) {
      const response = await as(t, admin, { method: 'GET', url: `/api/admin/orders?${query}` });
      expect(response.statusCode, query).toBe(400);
      expect(Object.keys(response.json<{ fields: Record<string, string> }>().fields), query).toEqual([field]);
      const csv = await as(t, admin, { method: 'GET', url: `/api/admin/orders.csv?${query}` });
      expect(csv.statusCode, query).toBe(400);
    }
  });

  it('keeps 10 rows a page', async () => {
    const tag = tagOf();
    const many = await createUser(t, { email: `pages.${tag}@buyers.example` });
    for (let i = 0; i < 13; i += 1) {
      await insertOrder({
        buyerId: many.id,
        sellerId: seller.id,
        orderNumber: `ORD-P${tag}${String(i).padStart(2, '0')}`,
        createdAt: new Date(Date.parse('2026-01-01T00:00:00Z') + i * 1000),
      });
    }
    const first = await get<Page<AdminOrder>>(admin, `/api/admin/orders?buyer=pages.${tag}`);
    expect(first).toMatchObject({ total: 13, page: 1, pageSize: 10, pageCount: 2 });
    expect(first.items).toHaveLength(10);
    const second = await get<Page<AdminOrder>>(admin, `/api/admin/orders?buyer=pages.${tag}&page=2`);
    expect(second.items.map((order) => order.orderNumber)).toEqual([
      `ORD-P${tag}02`,
      `ORD-P${tag}01`,
      `ORD-P${tag}00`,
    ]);
  });

  it('flags an open order of a suspended seller, not a delivered one, the buyer first', async () => {
    const { tag, sol, bea, numbers } = await scene();
    await suspend(sol.id);
    const flags = async () =>
      Object.fromEntries(
        (await get<Page<AdminOrder>>(admin, `/api/admin/orders?search=${tag}`)).items.map((order) => [
          order.orderNumber,
          order.flag,
        ]),
      );
    expect(await flags()).toEqual({
      [numbers.on16th]: 'Seller suspended',
      [numbers.end15th]: null,
      [numbers.midnight15th]: 'Seller suspended',
      // Another seller's order of the same buyer.
      [numbers.lateOn14th]: null,
      [numbers.early]: 'Seller suspended',
    });
    await suspend(bea.id);
    expect(await flags()).toMatchObject({
      [numbers.on16th]: 'Buyer suspended',
      [numbers.end15th]: null,
      [numbers.midnight15th]: 'Seller suspended',
      [numbers.lateOn14th]: 'Buyer suspended',
    });
  });
});

/** The CSV body as rows of raw cells (none of the test's cells holds a comma or a quote). */
function csvRows(body: string): string[][] {
  expect(body.endsWith('\r\n')).toBe(true);
  return body
    .slice(0, -2)
    .split('\r\n')
    .map((line) => line.split(','));
}

describe('the CSV exports', () => {
  const download = async (url: string, name: string) => {
    const response = await as(t, admin, { method: 'GET', url });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="${name}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
    );
    return csvRows(response.body);
  };

  it("exports the orders the list's filters match, with each party and the flag, formulas defused", async () => {
    const tag = tagOf();
    const evil = await createUser(t, {
      firstName: '=HYPERLINK(1)',
      lastName: `Evil${tag}`,
      email: `evil.${tag}@buyers.example`,
    });
    const sol = await createUser(t, {
      firstName: 'Sol',
      lastName: `Seller${tag}`,
      email: `sol.${tag}@sellers.example`,
      roles: ['buyer', 'seller'],
    });
    const dee = await createUser(t, {
      firstName: 'Dee',
      lastName: `Driver${tag}`,
      email: `dee.${tag}@drivers.example`,
      roles: ['buyer', 'driver'],
    });
    await insertOrder({
      buyerId: evil.id,
      sellerId: sol.id,
      driverId: dee.id,
      orderNumber: `ORD-C${tag}1`,
      status: 'in-transit',
      createdAt: new Date('2026-01-20T15:00:00Z'),
    });
    await insertOrder({
      buyerId: evil.id,
      sellerId: sol.id,
      orderNumber: `ORD-C${tag}2`,
      status: 'pending',
      createdAt: new Date('2026-01-21T15:00:00Z'),
    });
    await suspend(sol.id);

    const rows = await download(`/api/admin/orders.csv?search=${tag}&status=all`, 'orders');
    expect(rows[0]?.join(',')).toBe(
      'order_number,created_at,status,fulfilment,buyer_name,buyer_email,seller_name,seller_email,driver_name,driver_email,subtotal,delivery_fee,platform_fee,total,flag',
    );
    expect(rows.slice(1)).toEqual([
      [
        `ORD-C${tag}2`,
        '2026-01-21T15:00:00.000Z',
        'pending',
        'Delivery by a driver',
        `'=HYPERLINK(1) Evil${tag}`,
        evil.email,
        `Sol Seller${tag}`,
        sol.email,
        '',
        '',
        '30.00',
        '10.00',
        '4.00',
        '40.00',
        'Seller suspended',
      ],
      [
        `ORD-C${tag}1`,
        '2026-01-20T15:00:00.000Z',
        'in-transit',
        'Delivery by a driver',
        `'=HYPERLINK(1) Evil${tag}`,
        evil.email,
        `Sol Seller${tag}`,
        sol.email,
        `Dee Driver${tag}`,
        dee.email,
        '30.00',
        '10.00',
        '4.00',
        '40.00',
        'Seller suspended',
      ],
    ]);
    const byDriver = await download(
      `/api/admin/orders.csv?driver=${tag}&from=2026-01-20&to=2026-01-20`,
      'orders',
    );
    expect(byDriver.slice(1).map((row) => row[0])).toEqual([`ORD-C${tag}1`]);
  });

  it('exports users with their roles joined by ";", and every one of thousands, in batches', async () => {
    const tag = tagOf();
    const grace = await createUser(t, {
      firstName: '+Grace',
      lastName: 'Hopper',
      email: `grace.${tag}@navy.example`,
      roles: ['buyer', 'seller'],
      role: 'seller',
      isVerified: true,
    });
    await t.database.db
      .update(users)
      .set({ createdAt: new Date('2026-01-05T10:00:00Z') })
      .where(eq(users.id, grace.id));
    await suspend(grace.id);
    const rows = await download(`/api/admin/users.csv?search=grace.${tag}`, 'users');
    expect(rows).toEqual([
      ['id', 'email', 'first_name', 'last_name', 'role', 'roles', 'verified', 'suspended_at', 'created_at'],
      [
        grace.id,
        grace.email,
        "'+Grace",
        'Hopper',
        'seller',
        'buyer;seller',
        'true',
        '2026-02-01T12:00:00.000Z',
        '2026-01-05T10:00:00.000Z',
      ],
    ]);
    expect(await download(`/api/admin/users.csv?search=grace.${tag}&role=driver`, 'users')).toHaveLength(1);

    // More rows than a batch, many stored in the same microsecond and others a microsecond apart:
    // each is exported once, newest first.
    const count = 2345;
    await t.database.db.insert(users).values(
      Array.from({ length: count }, (_, i) => ({
        email: `bulk-${String(i).padStart(4, '0')}.${tag}@bulk.example`,
      })),
    );
    await t.database.db.execute(
      sql`update ${users} set created_at = timestamptz '2026-01-01 00:00:00+00' + (substr(email, 6, 4)::int % 700) * interval '1 microsecond' where email like ${`bulk-%.${tag}@bulk.example`}`,
    );
    const bulk = await download(`/api/admin/users.csv?search=.${tag}%40bulk`, 'users');
    const ids = bulk.slice(1).map((row) => row[0]);
    expect(ids).toHaveLength(count);
    expect(new Set(ids).size).toBe(count);
    const emails = bulk.slice(1).map((row) => row[1] ?? '');
    const microsecond = (email: string) => Number(email.slice(5, 9)) % 700;
    expect(
      emails.every((email, i) => i === 0 || microsecond(emails[i - 1] ?? '') >= microsecond(email)),
    ).toBe(true);
  });

  it("exports products the list's filters match, available or not, with their seller", async () => {
    const tag = tagOf();
    const maker = await createUser(t, {
      firstName: 'Mia',
      lastName: `Maker${tag}`,
      email: `mia.${tag}@sellers.example`,
      roles: ['buyer', 'seller'],
    });
    const shelf = await createProduct(t, maker.id, { name: `Shelf ${tag}`, price: '25.50', stock: 3 });
    const sneaky = await createProduct(t, maker.id, { name: `=cmd ${tag}`, available: false, stock: 0 });
    await t.database.db
      .update(products)
      .set({ createdAt: new Date('2026-01-07T08:00:00Z') })
      .where(eq(products.id, shelf.id));
    await t.database.db
      .update(products)
      .set({ createdAt: new Date('2026-01-08T08:00:00Z') })
      .where(eq(products.id, sneaky.id));
    const rows = await download(`/api/admin/products.csv?search=${tag}`, 'products');
    expect(rows).toEqual([
      ['id', 'name', 'category', 'price', 'stock', 'available', 'seller_name', 'seller_email', 'created_at'],
      [
        sneaky.id,
        `'=cmd ${tag}`,
        'Furniture',
        '20.00',
        '0',
        'false',
        `Mia Maker${tag}`,
        maker.email,
        '2026-01-08T08:00:00.000Z',
      ],
      [
        shelf.id,
        `Shelf ${tag}`,
        'Furniture',
        '25.50',
        '3',
        'true',
        `Mia Maker${tag}`,
        maker.email,
        '2026-01-07T08:00:00.000Z',
      ],
    ]);
    const active = await download(`/api/admin/products.csv?search=${tag}&status=active`, 'products');
    expect(active.slice(1).map((row) => row[0])).toEqual([shelf.id]);
  });

  it('refuses a page or an unknown filter (400), and anyone but an admin (401, 403)', async () => {
    for (const list of ['orders', 'users', 'products']) {
      const url = `/api/admin/${list}.csv`;
      expect((await as(t, admin, { method: 'GET', url: `${url}?page=2` })).statusCode, url).toBe(400);
      expect((await as(t, admin, { method: 'GET', url: `${url}?format=xlsx` })).statusCode, url).toBe(400);
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
      for (const user of [buyer, seller, driver]) {
        const response = await as(t, user, { method: 'GET', url });
        expect(response.statusCode, url).toBe(403);
        expect(response.headers['content-type']).toContain('application/json');
      }
    }
  });
});
