import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import { createProduct } from '../../testing/commerce';
import { products } from '../../db/schema';
import { likePattern } from '../../db/sql-text';

/**
 * A search compares the kept lower-cased name with the pattern lower-cased
 * (docs/decisions/0030-ten-times-the-data.md, Names lower-cased once): it must find exactly what
 * `name ilike pattern` finds, whatever the letters, and follow a renamed product.
 */

let t: TestApp;
let seller: TestUser;
let admin: TestUser;
const mine = new Set<string>();

/** Letters whose lower case is not ASCII's, letters with no single-letter case pair, and LIKE's own signs. */
const NAMES = [
  'Éclair Tray',
  'ÉCLAIR Stand',
  'Straße Sign',
  'STRASSE Map',
  'İstanbul Rug',
  'ǅemal Mug',
  'ΟΔΟΣ Atlas',
  'οδος atlas',
  'Ångström Ruler',
  '50% Off Chair',
  'a_b Cup',
  'aXb Cup',
  'back\\slash Bowl',
];
const TERMS = [
  'éclair',
  'ÉCLAIR',
  'Éclair t',
  'straße',
  'STRASSE',
  'İ',
  'i̇stanbul',
  'istanbul',
  'ǆ',
  'ǅ',
  'Ǆ',
  'οδοσ',
  'ΟΔΟΣ',
  'ς',
  'ÅNGSTRÖM',
  'ångström',
  '50%',
  '%',
  'a_b',
  '_',
  '\\',
  'back\\s',
];

beforeAll(async () => {
  t = await createTestApp();
  seller = await signedInAs(t, 'seller');
  admin = await signedInAs(t, 'admin');
  for (const name of NAMES) mine.add((await createProduct(t, seller.id, { name })).id);
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

/** This file's products whose name the database's own ILIKE finds containing `term`. */
async function ilikeFinds(term: string): Promise<string[]> {
  const rows = await t.database.db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.sellerId, seller.id), sql`${products.name} ilike ${likePattern(term)}`));
  return rows.map((row) => row.id).sort();
}

async function ids(url: string): Promise<string[]> {
  const response = await as(t, admin, { method: 'GET', url });
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json<{ id: string }[] | { items: { id: string }[] }>();
  const items = Array.isArray(body) ? body : body.items;
  return items
    .map((item) => item.id)
    .filter((id) => mine.has(id))
    .sort();
}

describe('a search by name', () => {
  it('finds in the catalog and in the admin list exactly what ILIKE finds, letter cases and LIKE signs alike', async () => {
    let found = 0;
    for (const term of TERMS) {
      const expected = await ilikeFinds(term);
      found += expected.length;
      const query = encodeURIComponent(term);
      expect(await ids(`/api/products?search=${query}&limit=100`), term).toEqual(expected);
      expect(await ids(`/api/admin/products?search=${query}&status=all`), term).toEqual(expected);
    }
    // The terms do find names (not every answer empty), and case does not matter for plain letters.
    expect(found).toBeGreaterThan(TERMS.length);
    expect(await ilikeFinds('ÉCLAIR')).toHaveLength(2);
  });

  it('follows a renamed product: found by its new name, no longer by its old one', async () => {
    const lamp = await createProduct(t, seller.id, { name: 'Quillon Lamp' });
    mine.add(lamp.id);
    const renamed = await as(t, seller, {
      method: 'PATCH',
      url: `/api/products/${lamp.id}`,
      payload: { name: 'Vellichor Lantern' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await ids('/api/admin/products?search=VELLICHOR&status=all')).toEqual([lamp.id]);
    expect(await ids('/api/products?search=vellichor%20lan')).toEqual([lamp.id]);
    expect(await ids('/api/admin/products?search=quillon&status=all')).toEqual([]);
    expect(await ids('/api/products?search=quillon')).toEqual([]);
  });
});
