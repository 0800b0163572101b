import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { createTestApp, signIn, type TestApp } from '../../testing/test-app';
import {
  addresses,
  availabilitySchedules,
  blackoutDates,
  orders,
  products,
  uploadedObjects,
  users,
} from '../schema';
import type { NewObject, ObjectStorage } from '../../adapters/storage/object-storage';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemoData } from './demo';
import { DEMO_SELLER_CATEGORIES, demoImagesFolder, planDemoProducts } from './demo-products';
import { DEFAULT_CATEGORIES } from '../../../domain/categories';
import type { ProductDetail, ProductListItem } from '../../../domain/catalog';

let t: TestApp;
// How long seeding takes is measured by bench/startup-memory.bench.mjs, not asserted here.
beforeAll(async () => {
  t = await createTestApp();
  await seedDemoData(t.database.db, { storage: t.storage });
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

describe('the demo marketplace', () => {
  it('lets every demo account sign in with the printed password', async () => {
    for (const account of DEMO_ACCOUNTS) {
      const cookie = await signIn(t, account.email, DEMO_PASSWORD);
      const me = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } });
      expect(me.json()).toMatchObject({ email: account.email, role: account.role });
    }
  });

  it('gives every demo user one primary address with coordinates in the Chicago area', async () => {
    const rows = await t.database.db
      .select({ email: users.email, latitude: addresses.latitude, longitude: addresses.longitude })
      .from(addresses)
      .innerJoin(users, eq(users.id, addresses.userId))
      .where(eq(addresses.isPrimary, true));
    expect(rows.map((r) => r.email).sort()).toEqual(DEMO_ACCOUNTS.map((a) => a.email).sort());
    for (const row of rows) {
      expect(Number(row.latitude)).toBeGreaterThan(41.5);
      expect(Number(row.latitude)).toBeLessThan(42.3);
      expect(Number(row.longitude)).toBeGreaterThan(-88.2);
      expect(Number(row.longitude)).toBeLessThan(-87.5);
    }
  });

  it('gives demo sellers a weekly schedule, a blackout and pickup slots', async () => {
    const [seller] = await t.database.db.select().from(users).where(eq(users.email, 'seller@example.com'));
    if (!seller) throw new Error('no demo seller');
    const schedules = await t.database.db
      .select()
      .from(availabilitySchedules)
      .where(eq(availabilitySchedules.userId, seller.id));
    expect(schedules.map((s) => s.dayOfWeek).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    const blackouts = await t.database.db
      .select()
      .from(blackoutDates)
      .where(eq(blackoutDates.userId, seller.id));
    expect(blackouts).toHaveLength(1);
    const slots = await t.app.inject({ method: 'GET', url: `/api/availability/slots/${seller.id}` });
    expect(slots.statusCode).toBe(200);
    expect(slots.json().length).toBeGreaterThan(50);
  });

  it('does nothing on a database that already has users', async () => {
    expect((await seedDemoData(t.database.db, { storage: t.storage })).seeded).toBe(false);
  });

  it('leaves no demo rows when a picture cannot be stored, so the next start seeds again', async () => {
    const empty = await createTestApp();
    try {
      // The rows are inserted while the pictures are written
      // (docs/decisions/0016-embedded-database-process.md, Start-up); the products' are written, the
      // drivers' are not.
      let batches = 0;
      const failing: ObjectStorage = Object.assign(Object.create(empty.storage) as ObjectStorage, {
        putNew: (objects: readonly NewObject[]) =>
          ++batches === 2 ? Promise.reject(new Error('the disk is full')) : empty.storage.putNew(objects),
      });
      await expect(seedDemoData(empty.database.db, { storage: failing })).rejects.toThrow('the disk is full');
      for (const table of [users, products, orders, uploadedObjects]) {
        const [row] = await empty.database.db.select({ n: count() }).from(table);
        expect(row?.n).toBe(0);
      }
    } finally {
      await empty.close();
    }
  });
});

describe('the demo catalog', () => {
  /** Every available product, through the public list's pages. */
  async function listAll(): Promise<ProductListItem[]> {
    const all: ProductListItem[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = (
        await t.app.inject({ method: 'GET', url: `/api/products?limit=100&offset=${offset}` })
      ).json<ProductListItem[]>();
      all.push(...page);
      if (page.length < 100) return all;
    }
  }

  it('has a few hundred available products over every category and demo seller', async () => {
    const list = await listAll();
    expect(list.length).toBeGreaterThanOrEqual(200);
    expect(new Set(list.map((p) => p.category))).toEqual(new Set(DEFAULT_CATEGORIES));
    expect(new Set(list.map((p) => p.sellerName)).size).toBe(Object.keys(DEMO_SELLER_CATEGORIES).length);
    expect(new Set(list.map((p) => p.name)).size).toBe(list.length);
    // The spec's variety: sold out, trailer, seller delivery with a fee, pickup; all with a place.
    expect(list.some((p) => p.stock === 0)).toBe(true);
    expect(list.some((p) => p.requiresTrailer)).toBe(true);
    expect(list.some((p) => p.sellerDelivery && p.sellerDeliveryFee !== null)).toBe(true);
    expect(list.some((p) => p.offerPickup)).toBe(true);
    expect(list.every((p) => p.sellerCity !== null && p.sellerState === 'IL')).toBe(true);
    expect(list.every((p) => /^\/objects\/uploads\/[0-9a-f-]{36}$/.test(p.imageUrl ?? ''))).toBe(true);
    const all = await t.database.db.select({ available: products.available }).from(products);
    expect(all.some((p) => !p.available)).toBe(true);
  });

  it('serves every picture as a public PNG, with one or two extra pictures per product', async () => {
    const list = await listAll();
    for (const product of list.slice(0, 40)) {
      const detail = (
        await t.app.inject({ method: 'GET', url: `/api/products/${product.id}` })
      ).json<ProductDetail>();
      expect(detail.images.length).toBeGreaterThanOrEqual(1);
      expect(detail.images.length).toBeLessThanOrEqual(2);
      for (const url of [product.imageUrl ?? '', ...detail.images.map((i) => i.imageUrl)]) {
        const image = await t.app.inject({ method: 'GET', url });
        expect(image.statusCode, url).toBe(200);
        expect(image.headers['content-type']).toBe('image/png');
        expect(image.rawPayload.subarray(1, 4).toString()).toBe('PNG');
      }
    }
    const objects = await t.database.db
      .select({ visibility: uploadedObjects.visibility, ownerId: uploadedObjects.ownerId })
      .from(uploadedObjects);
    const drivers = await t.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.isVerified, true));
    const driverIds = new Set(drivers.map((driver) => driver.id));
    expect(objects.filter((o) => !driverIds.has(o.ownerId)).every((o) => o.visibility === 'public')).toBe(
      true,
    );
  });

  it('gives the approved demo drivers their vehicle, license and trailer pictures, readable by them only', async () => {
    for (const account of DEMO_ACCOUNTS.filter((a) => a.roles.includes('driver') && a.isVerified)) {
      const cookie = await signIn(t, account.email, DEMO_PASSWORD);
      const me = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } });
      const user = me.json<Record<string, string | null>>();
      for (const field of ['vehicleImageUrl', 'licenseImageUrl', 'trailerImageUrl']) {
        const url = user[field] ?? '';
        expect(url, `${account.email} ${field}`).toMatch(/^\/objects\/uploads\/[0-9a-f-]{36}$/);
        const own = await t.app.inject({ method: 'GET', url, headers: { cookie } });
        expect(own.statusCode).toBe(200);
        expect(own.headers['content-type']).toBe('image/png');
        expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
      }
      // Verified, so orders are offered to them (docs/rules/deliveries.md, Deliveries).
      const offers = await t.app.inject({ method: 'GET', url: '/api/orders/available', headers: { cookie } });
      expect(offers.statusCode, offers.body).toBe(200);
    }
  });

  it('is the same catalog every time, drawn from the committed pictures', () => {
    const now = new Date('2030-06-01T12:00:00Z');
    const first = planDemoProducts(now);
    expect(planDemoProducts(now)).toEqual(first);
    const files = new Set(fs.readdirSync(demoImagesFolder()));
    for (const product of first)
      for (const file of product.imageFiles) expect(files.has(file), file).toBe(true);
    const bytes = [...files].reduce(
      (sum, file) => sum + fs.statSync(path.join(demoImagesFolder(), file)).size,
      0,
    );
    expect(bytes).toBeLessThan(2 * 1024 * 1024);
  });
});
