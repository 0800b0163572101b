import { and, asc, desc, eq, isNotNull, like, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addresses, products, users } from '../../db/schema';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import type { ProductListItem } from '../../../domain/catalog';
import {
  listFewMatchingProductCardsByDistance,
  listNearbyProductCards,
  listNearbyProductCardsOfWordSellers,
  listUnlocatedProductCards,
} from './catalog.queries';
import { EARTH_RADIUS_MILES } from '../../../domain/geo';

/**
 * The distance list reads the sellers in rings of doubling radius and stops at the ring that fills
 * the page (docs/decisions/0015-catalog-and-checkout-throughput.md). Whatever the limit, page size
 * and offset, its pages must be exactly a full scan's: every available product of a located seller
 * within the limit, by the exact distance, then newest, then id; sellers without coordinates never
 * among them.
 */

let t: TestApp;
let buyer: TestUser;
/** The buyer's place, in the Loop. */
const ORIGIN = { latitude: 41.8781, longitude: -87.6298 };
/** A primary address in the Loop, at ORIGIN: where the distances are measured from. */
async function homeAtOrigin(db: TestApp['database']['db'], userId: string): Promise<void> {
  await db.insert(addresses).values({
    userId,
    addressLine1: '233 S Wacker Dr',
    city: 'Chicago',
    state: 'IL',
    zipCode: '60606',
    latitude: ORIGIN.latitude.toFixed(7),
    longitude: ORIGIN.longitude.toFixed(7),
    isPrimary: true,
  });
}

/** Miles per degree of latitude on the app's sphere. */
const MILES_PER_DEGREE = (EARTH_RADIUS_MILES * Math.PI) / 180;

/**
 * Sellers north, east or south-west of the buyer at these miles: on both sides of the rings' edges
 * (1, 2, 4, 8, 16 miles) and of the limits asked below, two at the very same place (their products
 * interleave newest first), one at the buyer's own place, and a few far away.
 */
const SELLER_MILES = [
  0, 0.4, 0.999, 1.001, 1.5, 1.999, 2, 2.001, 2.9, 3.999, 4.001, 5, 5, 7.999, 8.001, 12, 15.999, 16.001, 24.9,
  25.1, 40, 180, 2500,
];

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  buyer = await signedInAs(t, 'buyer');
  await homeAtOrigin(db, buyer.id);
  const sellers = await db
    .insert(users)
    .values(
      [...SELLER_MILES, null, null].map((_, i) => ({
        email: `ring-seller-${i}@example.com`,
        firstName: 'Ring',
        lastName: `Seller ${i}`,
        role: 'seller' as const,
        roles: ['buyer' as const, 'seller' as const],
      })),
    )
    .returning({ id: users.id });
  const located = SELLER_MILES.map((miles, i) => {
    // The same miles in three directions, so the box's corners and edges are crossed too.
    const direction = i % 3;
    const latitude =
      direction === 0
        ? ORIGIN.latitude + miles / MILES_PER_DEGREE
        : direction === 1
          ? ORIGIN.latitude
          : ORIGIN.latitude - miles / MILES_PER_DEGREE / Math.SQRT2;
    const lngScale = MILES_PER_DEGREE * Math.cos((ORIGIN.latitude * Math.PI) / 180);
    const longitude =
      direction === 0
        ? ORIGIN.longitude
        : direction === 1
          ? ORIGIN.longitude + miles / lngScale
          : ORIGIN.longitude - miles / lngScale / Math.SQRT2;
    return { sellerId: sellers[i]?.id ?? '', latitude, longitude };
  });
  // The two sellers at 5 miles stand at the very same place.
  const twins = SELLER_MILES.flatMap((miles, i) => (miles === 5 ? [i] : []));
  const [first, second] = twins.map((i) => located[i]);
  if (first && second) Object.assign(second, { latitude: first.latitude, longitude: first.longitude });
  await db.insert(addresses).values([
    ...located.map(({ sellerId, latitude, longitude }) => ({
      userId: sellerId,
      addressLine1: '1 Ring Rd',
      city: 'Chicago',
      state: 'IL',
      zipCode: '60601',
      latitude: latitude.toFixed(7),
      longitude: longitude.toFixed(7),
      isPrimary: true,
    })),
    // A seller whose address has no place: never in a list with a limit.
    {
      userId: sellers[SELLER_MILES.length]?.id ?? '',
      addressLine1: '1 Unknown Rd',
      city: 'Nowhere',
      state: 'IL',
      zipCode: '00000',
      isPrimary: true,
    },
  ]);
  // Two or three products each, some sold out or withdrawn, their ages interleaved across sellers.
  const day = (n: number) => new Date(Date.UTC(2030, 0, 1 + (n % 300)));
  await db.insert(products).values(
    sellers.flatMap(({ id }, i) =>
      Array.from({ length: 2 + (i % 2) }, (_, j) => ({
        sellerId: id,
        name: `Ring product ${i}-${j}`,
        price: '10.00',
        category: 'Toys & Games',
        stock: 3,
        available: (i + j) % 5 !== 4,
        createdAt: day(i * 7 + j * 11),
      })),
    ),
  );
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

/** Every located product within `miles` by brute force: the distance of each, then one sort. */
async function fullScan(miles: number | undefined): Promise<string[]> {
  const hav = sql`(2 * ${EARTH_RADIUS_MILES}::float8 * asin(least(1::float8, sqrt(
    power(sin(radians(${addresses.latitude}::float8 - ${ORIGIN.latitude}::float8) / 2), 2)
    + cos(radians(${ORIGIN.latitude}::float8)) * cos(radians(${addresses.latitude}::float8))
      * power(sin(radians(${addresses.longitude}::float8 - ${ORIGIN.longitude}::float8) / 2), 2)))))`;
  const rows = await t.database.db
    .select({ id: products.id })
    .from(products)
    .innerJoin(addresses, and(eq(addresses.userId, products.sellerId), eq(addresses.isPrimary, true)))
    .where(
      and(
        eq(products.available, true),
        like(products.name, 'Ring product %'),
        isNotNull(addresses.latitude),
        isNotNull(addresses.longitude),
        miles === undefined ? undefined : sql`${hav} <= ${miles}::float8`,
      ),
    )
    .orderBy(hav, desc(products.createdAt), asc(products.id));
  return rows.map((row) => row.id);
}

/**
 * With and without a search that every product here matches ("Ring product"): the lists are the
 * same. (A search matching few products is read another way, `planSearch`: compared below.)
 */
describe.each([
  ['without a search', ''],
  ['with a search', 'search=Ring%20product&'],
])('the distance list against a full scan, %s', (_way, search) => {
  async function page(query: string): Promise<ProductListItem[]> {
    const response = await as(t, buyer, {
      method: 'GET',
      url: `/api/products/with-distance?${search}${query}`,
    });
    expect(response.statusCode, query).toBe(200);
    return response.json<ProductListItem[]>();
  }

  it.each([1, 2, 3, 4, 9, 16, 25, 100, 499])(
    'within %s miles, every page is the full scan’s, at every page size',
    async (miles) => {
      const expected = await fullScan(miles);
      expect((await page(`maxDistance=${miles}&limit=100`)).map((p) => p.id)).toEqual(expected);
      for (const limit of [1, 3, 7]) {
        const pages: string[] = [];
        for (let offset = 0; offset <= expected.length; offset += limit)
          pages.push(
            ...(await page(`maxDistance=${miles}&limit=${limit}&offset=${offset}`)).map((p) => p.id),
          );
        expect(pages, `limit ${limit}`).toEqual(expected);
      }
    },
  );

  it('at any distance, puts every located product first in the same order, then those without a place', async () => {
    const located = await fullScan(undefined);
    const all = await page('limit=100');
    expect(all.slice(0, located.length).map((p) => p.id)).toEqual(located);
    const rest = all.slice(located.length);
    expect(rest.length).toBeGreaterThan(0);
    expect(rest.every((p) => p.distance === null)).toBe(true);
    const pages: string[] = [];
    for (let offset = 0; offset < all.length + 5; offset += 4)
      pages.push(...(await page(`limit=4&offset=${offset}`)).map((p) => p.id));
    expect(pages).toEqual(all.map((p) => p.id));
  });

  it('shows the distances in order, each within the limit', async () => {
    const list = await page('maxDistance=16&limit=100');
    const distances = list.map((p) => p.distance);
    expect(distances.every((d) => d !== null && d <= 16)).toBe(true);
    expect(distances).toEqual([...distances].sort((a, b) => (a ?? 0) - (b ?? 0)));
    expect(distances[0]).toBe(0);
  });
});

describe('a search matching few products or sold by few sellers, read from those', () => {
  it('gives every page the rings give, within any limit and at any distance', async () => {
    const db = t.database.db;
    const ids = (rows: { product: { id: string } }[]) => rows.map((row) => row.product.id);
    const search = 'ring product';
    for (const maxDistance of [undefined, 2, 9, 25]) {
      // The whole list as the sellers-first reading gives it: the located products, then (at any
      // distance) those without a place, newest first.
      const located = ids(
        await listNearbyProductCards(db, { search, origin: ORIGIN, maxDistance, limit: 1000, offset: 0 }),
      );
      expect(located).toEqual(await fullScan(maxDistance));
      const whole =
        maxDistance === undefined
          ? [...located, ...ids(await listUnlocatedProductCards(db, { search, limit: 1000, offset: 0 }))]
          : located;
      if (maxDistance === undefined) expect(whole.length).toBeGreaterThan(located.length);
      for (const [limit, offset] of [
        [100, 0],
        [3, 0],
        [3, 6],
        [7, 14],
        // Across the end of the located products, and past the end of the list.
        [5, located.length - 2],
        [4, located.length],
        [3, whole.length - 1],
        [3, whole.length + 2],
      ] as const) {
        const query = { search, origin: ORIGIN, maxDistance, limit, offset };
        // From the word's sellers: the located products' page, as the rings give it.
        expect(
          ids(await listNearbyProductCardsOfWordSellers(db, query)),
          `sellers of the word ${maxDistance} ${limit} ${offset}`,
        ).toEqual(located.slice(offset, offset + limit));
        const few = await listFewMatchingProductCardsByDistance(db, query);
        expect(ids(few), `${maxDistance} ${limit} ${offset}`).toEqual(whole.slice(offset, offset + limit));
        // Those past the located products have no distance.
        expect(
          few.map((row) => row.distance === null),
          `${maxDistance} ${limit} ${offset}`,
        ).toEqual(whole.slice(offset, offset + limit).map((_, i) => offset + i >= located.length));
      }
    }
  });
});

describe('a searched word, the sellers without it passed over', () => {
  it('finds what each seller sells now: products added, renamed, shown again or moved to another seller', async () => {
    // The walk passes over a seller whose kept word keys lack one of the word's
    // (docs/decisions/0030-ten-times-the-data.md, Sellers passed over): the keys must follow every
    // insert and rename. An app of its own: the lists above count every product.
    const app = await createTestApp();
    try {
      const db = app.database.db;
      const sellers = await db
        .insert(users)
        .values(
          [0.5, 1, 3].map((_, i) => ({
            email: `word-seller-${i}@example.com`,
            firstName: 'Word',
            lastName: `Seller ${i}`,
            role: 'seller' as const,
            roles: ['buyer' as const, 'seller' as const],
          })),
        )
        .returning({ id: users.id });
      const [near, middle, far] = sellers.map((s) => s.id);
      if (!near || !middle || !far) throw new Error('sellers not made');
      await db.insert(addresses).values(
        [near, middle, far].map((userId, i) => ({
          userId,
          addressLine1: '1 Word Rd',
          city: 'Chicago',
          state: 'IL',
          zipCode: '60601',
          latitude: (ORIGIN.latitude + [0.5, 1, 3][i]! / MILES_PER_DEGREE).toFixed(7),
          longitude: ORIGIN.longitude.toFixed(7),
          isPrimary: true,
        })),
      );
      const at = (n: number) => new Date(Date.UTC(2030, 0, 1 + n));
      const product = (sellerId: string, name: string, n: number, available = true) => ({
        sellerId,
        name,
        price: '10.00',
        category: 'Home & Garden',
        stock: 3,
        available,
        createdAt: at(n),
      });
      const made = await db
        .insert(products)
        .values([
          product(near, 'Oak Chair', 1),
          product(middle, 'Brass Lamp', 2),
          product(far, 'Café Lamp', 3),
          product(far, 'Oak Stool', 4),
          product(near, 'Desk GLOBE', 5, false),
        ])
        .returning({ id: products.id, name: products.name });
      const idOf = (name: string) => made.find((p) => p.name === name)?.id ?? '';
      const found = async (search: string, maxDistance?: number) => {
        const query = { search, origin: ORIGIN, maxDistance, limit: 100, offset: 0 };
        const walked = await listNearbyProductCards(db, query);
        const names = (rows: { product: { name: string } }[]) => rows.map((row) => row.product.name);
        // The other readings, from the matching products and from the word's sellers, give the same list.
        expect(names(await listFewMatchingProductCardsByDistance(db, query)), search).toEqual(names(walked));
        if (/[a-z0-9]{3}/.test(search.toLowerCase()))
          expect(names(await listNearbyProductCardsOfWordSellers(db, query)), search).toEqual(names(walked));
        return names(walked);
      };
      expect(await found('lamp')).toEqual(['Brass Lamp', 'Café Lamp']);
      expect(await found('lamp', 2)).toEqual(['Brass Lamp']);
      expect(await found('CAFÉ')).toEqual(['Café Lamp']);
      expect(await found('afé l')).toEqual(['Café Lamp']);
      // Renamed: the nearest seller now sells a lamp.
      await db
        .update(products)
        .set({ name: 'Oak Lampstand' })
        .where(eq(products.id, idOf('Oak Chair')));
      expect(await found('lamp')).toEqual(['Oak Lampstand', 'Brass Lamp', 'Café Lamp']);
      // Put on sale after it was added withdrawn.
      await db
        .update(products)
        .set({ available: true })
        .where(eq(products.id, idOf('Desk GLOBE')));
      expect(await found('desk globe')).toEqual(['Desk GLOBE']);
      // Moved to the seller in the middle.
      await db
        .update(products)
        .set({ sellerId: middle })
        .where(eq(products.id, idOf('Oak Stool')));
      expect(await found('stool')).toEqual(['Oak Stool']);
      expect(await found('oak')).toEqual(['Oak Lampstand', 'Oak Stool']);
      // A word no seller has: none read.
      expect(await found('lantern')).toEqual([]);
      // Through the route, which plans the reading: the same lists, and an empty one at once.
      const shopper = await signedInAs(app, 'buyer');
      await homeAtOrigin(db, shopper.id);
      for (const search of ['lamp', 'oak', 'lantern', 'CAFÉ']) {
        const response = await as(app, shopper, {
          method: 'GET',
          url: `/api/products/with-distance?search=${encodeURIComponent(search)}`,
        });
        expect(response.statusCode, search).toBe(200);
        expect(
          response.json<ProductListItem[]>().map((p) => p.name),
          search,
        ).toEqual(await found(search));
      }
    } finally {
      await app.close();
    }
  });
});
