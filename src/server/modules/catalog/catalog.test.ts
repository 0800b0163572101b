import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createTestApp,
  createUser,
  signedInAs,
  type TestApp,
  type TestUser,
} from '../../testing/test-app';
import { orders, productImages, products, reviews } from '../../db/schema';
import type { ProductDetail, ProductImage, ProductListItem } from '../../../domain/catalog';

let t: TestApp;
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** A buyer in Lakeview (ZIP 60613); the sellers' distances from there are known (below). */
let buyer: TestUser;
let homeless: TestUser;
let near: TestUser;
const ids: Record<string, string> = {};

/**
 * Great-circle miles between ZIP centroids of the `zipcodes` package (computed by hand with the
 * haversine formula, R = 3958.76 mi): 60613 to 60611 (Streeterville) 4.35, to 60523 (Oak Brook)
 * 17.71, to 62701 (Springfield) 181.61.
 */
const MILES = { near: 4.35, oakBrook: 17.71, springfield: 181.61 };

async function addAddress(user: TestUser, zipCode: string, city: string) {
  const response = await as(t, user, {
    method: 'POST',
    url: '/api/addresses',
    payload: { addressLine1: '1 Test St', city, state: 'IL', zipCode },
  });
  expect(response.statusCode).toBe(201);
}

const day = (n: number) => new Date(Date.UTC(2030, 0, n));

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  buyer = await signedInAs(t, 'buyer');
  homeless = await signedInAs(t, 'buyer');
  near = await signedInAs(t, 'seller', { firstName: 'Sal', lastName: 'Vendor' });
  const oakBrook = await signedInAs(t, 'seller', { firstName: 'Olive', lastName: 'Brook' });
  const springfield = await signedInAs(t, 'seller', { firstName: 'Spring', lastName: 'Field' });
  const unknownZip = await signedInAs(t, 'seller', { firstName: 'Una', lastName: 'Known' });
  // A seller with no address at all, and no name: the card says "Seller".
  const nowhere = await createUser(t, { roles: ['buyer', 'seller'], firstName: '', lastName: '' });
  await addAddress(buyer, '60613', 'Chicago');
  await addAddress(near, '60611', 'Chicago');
  await addAddress(oakBrook, '60523', 'Oak Brook');
  await addAddress(springfield, '62701', 'Springfield');
  await addAddress(unknownZip, '00000', 'Nowhere');

  const rows = await db
    .insert(products)
    .values([
      {
        sellerId: near.id,
        name: 'Oak Table',
        price: '120.5',
        category: 'Furniture',
        stock: 2,
        requiresTrailer: true,
        createdAt: day(10),
      },
      {
        sellerId: near.id,
        name: 'Table Lamp',
        price: '30',
        category: 'Home & Garden',
        stock: 0,
        sellerDelivery: true,
        sellerDeliveryFee: '7.5',
        offerPickup: true,
        imageUrl: '/objects/uploads/11111111-1111-4111-8111-111111111111',
        createdAt: day(9),
      },
      {
        sellerId: near.id,
        name: '50% Off Chair',
        price: '45.00',
        category: 'Furniture',
        stock: 1,
        createdAt: day(8),
      },
      {
        sellerId: near.id,
        name: 'Retired Table',
        price: '10.00',
        category: 'Furniture',
        stock: 5,
        available: false,
        createdAt: day(20),
      },
      {
        sellerId: oakBrook.id,
        name: 'Garden Hose',
        price: '25.00',
        category: 'Home & Garden',
        stock: 3,
        createdAt: day(11),
      },
      {
        sellerId: springfield.id,
        name: 'Prairie Quilt',
        price: '80.00',
        category: 'Home & Garden',
        stock: 1,
        createdAt: day(7),
      },
      {
        sellerId: unknownZip.id,
        name: 'Mystery Box',
        price: '5.00',
        category: 'Toys & Games',
        stock: 9,
        createdAt: day(12),
      },
      {
        sellerId: nowhere.id,
        name: 'Lost Kite',
        price: '12.00',
        category: 'Toys & Games',
        stock: 4,
        createdAt: day(6),
      },
    ])
    .returning({ id: products.id, name: products.name });
  for (const row of rows) ids[row.name] = row.id;

  // The lamp's extras, out of order; one repeats the main image and is not listed again.
  const lamp = ids['Table Lamp'] ?? '';
  await db.insert(productImages).values([
    { productId: lamp, imageUrl: '/objects/uploads/33333333-3333-4333-8333-333333333333', displayOrder: 2 },
    { productId: lamp, imageUrl: '/objects/uploads/11111111-1111-4111-8111-111111111111', displayOrder: 0 },
    { productId: lamp, imageUrl: '/objects/uploads/22222222-2222-4222-8222-222222222222', displayOrder: 1 },
  ]);

  // Sal's reviews as a seller: 5, 4, 4 make 4.3; a review of Sal as a buyer does not count.
  const order = async (sellerId: string, number: string) => {
    const [row] = await db
      .insert(orders)
      .values({
        buyerId: buyer.id,
        sellerId,
        orderNumber: number,
        status: 'delivered',
        productSubtotal: '100.00',
        deliveryFee: '10.00',
        total: '110.00',
        deliveryAddress: '1 Test St, Chicago, IL 60613',
        sellerEarnings: '90.00',
        driverEarnings: '9.00',
        purchasePlatformFee: '10.00',
        deliveryPlatformFee: '1.00',
        platformFee: '11.00',
      })
      .returning({ id: orders.id });
    if (!row) throw new Error('no order');
    return row.id;
  };
  const review = (orderId: string, reviewerId: string, revieweeRole: string, rating: number) => ({
    orderId,
    reviewerId,
    revieweeId: near.id,
    reviewerRole: 'buyer',
    revieweeRole,
    rating,
  });
  const o1 = await order(near.id, 'ORD-CAT001');
  const o2 = await order(near.id, 'ORD-CAT002');
  const o3 = await order(near.id, 'ORD-CAT003');
  const other = await createUser(t);
  await db
    .insert(reviews)
    .values([
      review(o1, buyer.id, 'seller', 5),
      review(o2, buyer.id, 'seller', 4),
      review(o3, buyer.id, 'seller', 4),
      review(o1, other.id, 'buyer', 1),
    ]);
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

const names = (body: { name: string }[]) => body.map((p) => p.name);
const sorted = (list: string[]) => [...list].sort();
const get = async <T>(url: string, user?: TestUser) => {
  const response = await as(t, user, { method: 'GET', url });
  return { status: response.statusCode, body: response.json<T>() };
};

/** Newest first: every available product of the fixture. */
const AVAILABLE_NEWEST_FIRST = [
  'Mystery Box',
  'Garden Hose',
  'Oak Table',
  'Table Lamp',
  '50% Off Chair',
  'Prairie Quilt',
  'Lost Kite',
];

describe('GET /api/products', () => {
  it('lists available products newest first, with the fields the cards show', async () => {
    const { status, body } = await get<ProductListItem[]>('/api/products');
    expect(status).toBe(200);
    expect(names(body)).toEqual(AVAILABLE_NEWEST_FIRST);
    expect(body.find((p) => p.name === 'Oak Table')).toEqual({
      id: ids['Oak Table'],
      sellerId: near.id,
      name: 'Oak Table',
      description: null,
      price: '120.50',
      imageUrl: null,
      category: 'Furniture',
      stock: 2,
      available: true,
      requiresTrailer: true,
      sellerDelivery: false,
      sellerDeliveryFee: null,
      offerPickup: false,
      createdAt: '2030-01-10T00:00:00.000Z',
      sellerName: 'Sal Vendor',
      sellerRating: 4.3,
      sellerCity: 'Chicago',
      sellerState: 'IL',
      distance: null,
    });
    expect(body.find((p) => p.name === 'Table Lamp')).toMatchObject({
      stock: 0,
      available: true,
      sellerDelivery: true,
      sellerDeliveryFee: '7.50',
      offerPickup: true,
      imageUrl: '/objects/uploads/11111111-1111-4111-8111-111111111111',
    });
    // No reviews: no rating; no address: no place; no name: the role word
    // (docs/rules/screens-shared.md, Client behaviour).
    expect(body.find((p) => p.name === 'Lost Kite')).toMatchObject({
      sellerName: 'Seller',
      sellerRating: null,
      sellerCity: null,
      sellerState: null,
    });
  });

  it('searches names case-insensitively and filters by exact category', async () => {
    expect(sorted(names((await get<ProductListItem[]>('/api/products?search=TABLE')).body))).toEqual([
      'Oak Table',
      'Table Lamp',
    ]);
    // A substring across words; the search box's surrounding spaces do not count.
    expect(names((await get<ProductListItem[]>('/api/products?search=%20ABLE%20l%20')).body)).toEqual([
      'Table Lamp',
    ]);
    expect(names((await get<ProductListItem[]>('/api/products?category=Furniture')).body)).toEqual([
      'Oak Table',
      '50% Off Chair',
    ]);
    expect((await get<ProductListItem[]>('/api/products?category=furniture')).body).toEqual([]);
    expect((await get<ProductListItem[]>('/api/products?category=All')).body).toHaveLength(7);
    expect(
      names(
        (
          await get<ProductListItem[]>(
            `/api/products?category=${encodeURIComponent('Home & Garden')}&search=QUI`,
          )
        ).body,
      ),
    ).toEqual(['Prairie Quilt']);
  });

  it('treats % and _ in a search as plain text', async () => {
    const percent = await get<ProductListItem[]>(`/api/products?search=${encodeURIComponent('50%')}`);
    expect(names(percent.body)).toEqual(['50% Off Chair']);
    expect((await get<ProductListItem[]>('/api/products?search=_')).body).toEqual([]);
  });

  it('keeps to products with stock left when asked (inStock=true), on the public cache too', async () => {
    const all = names((await get<ProductListItem[]>('/api/products')).body);
    expect(all).toContain('Table Lamp');
    const inStock = await get<ProductListItem[]>('/api/products?inStock=true&limit=8');
    expect(inStock.status).toBe(200);
    expect(names(inStock.body)).toEqual(all.filter((name) => name !== 'Table Lamp'));
    expect(inStock.body.every((product) => product.stock > 0)).toBe(true);
    // false is the whole list; the answers are cached apart.
    expect(names((await get<ProductListItem[]>('/api/products?inStock=false')).body)).toEqual(all);
    const bad = await get<{ fields: Record<string, string> }>('/api/products?inStock=yes');
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({ inStock: 'Must be true or false' });
  });

  it('pages in the database and refuses a bad page', async () => {
    const first = await get<ProductListItem[]>('/api/products?limit=3&offset=0');
    const second = await get<ProductListItem[]>('/api/products?limit=3&offset=3');
    const third = await get<ProductListItem[]>('/api/products?limit=3&offset=6');
    expect([...names(first.body), ...names(second.body), ...names(third.body)]).toEqual(
      AVAILABLE_NEWEST_FIRST,
    );
    expect((await get<ProductListItem[]>('/api/products?offset=100')).body).toEqual([]);
    for (const query of ['limit=5000', 'limit=0', 'offset=-1', 'limit=abc']) {
      const bad = await get<{ fields: Record<string, string> }>(`/api/products?${query}`);
      expect(bad.status, query).toBe(400);
      expect(Object.keys(bad.body.fields), query).toEqual([query.split('=')[0]]);
    }
  });
});

describe('GET /api/products: a word in a category', () => {
  it('pages the same for a word common in the category and a rare one', async () => {
    // A word common in the category is found walking the category newest first, a rare one
    // through the index of the names' trigrams keyed by category
    // (docs/decisions/0030-ten-times-the-data.md, A word in a category). Pages of two,
    // read one after another, must be the category's matches newest first either way. An app of
    // its own: the other tests list every product.
    const app = await createTestApp();
    try {
      const seller = await createUser(app, { roles: ['buyer', 'seller'] });
      const at = (n: number) => new Date(Date.UTC(2031, 0, 1) - n * 60_000);
      // 100 lamps, newest first: "Brass" in the six newest, then in one of every thirty; one
      // "Ivory", old. The same names in a category that differs only in case, and in another whose
      // name starts the same, never show.
      const lamps = Array.from({ length: 100 }, (_, n) => ({
        name:
          n < 6 || n % 30 === 29
            ? `Lamp ${n} brass`
            : n === 90
              ? `Lamp ${n} IVORY`
              : n === 70
                ? `Lamp ${n} café-noir 50%`
                : `Lamp ${n}`,
        category: '50% Lamps',
        createdAt: at(n),
      }));
      const lookalikes = ['50% lamps', '50% Lamps and Shades'].flatMap((category) =>
        [3, 50].map((n) => ({ name: `Lamp ${n} brass ivory`, category, createdAt: at(n) })),
      );
      await app.database.db
        .insert(products)
        .values(
          [...lamps, ...lookalikes].map((row) => ({ ...row, sellerId: seller.id, price: '10', stock: 1 })),
        );
      const pages = async (word: string) => {
        const found: string[] = [];
        for (let offset = 0; ; offset += 2) {
          const url = `/api/products?search=${word}&category=${encodeURIComponent('50% Lamps')}&limit=2&offset=${offset}`;
          const response = await as(app, undefined, { method: 'GET', url });
          expect(response.statusCode, url).toBe(200);
          const page = names(response.json<ProductListItem[]>());
          found.push(...page);
          if (page.length < 2) return found;
        }
      };
      const expected = (word: string) =>
        lamps.filter((lamp) => lamp.name.toLowerCase().includes(word)).map((lamp) => lamp.name);
      expect(await pages('BRASS')).toEqual(expected('brass'));
      expect(expected('brass')).toHaveLength(9);
      expect(await pages('ivory')).toEqual(['Lamp 90 IVORY']);
      expect(await pages('brass%20ivory')).toEqual([]);
      // Part of a word, letters that are not ASCII, a word too short for a key, a wildcard taken as
      // plain text: the same as the names that contain it.
      for (const word of ['RAS', 'VORY', 'amp 8', 'afé-n', 'é-noir', 'p 7', '50%', '0%25'])
        expect(await pages(encodeURIComponent(word)), word).toEqual(expected(word.toLowerCase()));
      expect(expected('afé-n')).toEqual(['Lamp 70 café-noir 50%']);
    } finally {
      await app.close();
    }
  });
});

describe('GET /api/products/{id}', () => {
  it('answers any product, unavailable ones too, to visitors', async () => {
    const { status, body } = await get<ProductDetail>(`/api/products/${ids['Retired Table']}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      name: 'Retired Table',
      available: false,
      sellerName: 'Sal Vendor',
      distance: null,
    });
    expect(body.images).toEqual([]);
  });

  it('adds the extra images in display order, and the distance for a signed-in buyer', async () => {
    const visitor = await get<ProductDetail>(`/api/products/${ids['Table Lamp']}`);
    expect(visitor.body.distance).toBeNull();
    expect(visitor.body.images.map((i) => i.imageUrl)).toEqual([
      '/objects/uploads/22222222-2222-4222-8222-222222222222',
      '/objects/uploads/33333333-3333-4333-8333-333333333333',
    ]);
    const signedIn = await get<ProductDetail>(`/api/products/${ids['Table Lamp']}`, buyer);
    expect(signedIn.body.distance).toBeCloseTo(MILES.near, 0);
  });

  it('answers 404 for an unknown product and 400 for a malformed id', async () => {
    const missing = await get<{ message: string }>(`/api/products/${UNKNOWN_ID}`);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Product not found');
    const malformed = await get<{ fields: Record<string, string> }>('/api/products/not-an-id');
    expect(malformed.status).toBe(400);
    expect(malformed.body.fields).toEqual({ id: 'Must be a valid id' });
  });
});

describe('GET /api/products/{id}/images', () => {
  it('lists the extra images by display order without repeating the main image', async () => {
    const { status, body } = await get<ProductImage[]>(`/api/products/${ids['Table Lamp']}/images`);
    expect(status).toBe(200);
    expect(body.map((i) => [i.imageUrl, i.displayOrder])).toEqual([
      ['/objects/uploads/22222222-2222-4222-8222-222222222222', 1],
      ['/objects/uploads/33333333-3333-4333-8333-333333333333', 2],
    ]);
    expect(Object.keys(body[0] ?? {}).sort()).toEqual(['displayOrder', 'id', 'imageUrl']);
    expect((await get<ProductImage[]>(`/api/products/${ids['Oak Table']}/images`)).body).toEqual([]);
  });

  it('answers 404 for an unknown product and 400 for a malformed id', async () => {
    const missing = await get<{ message: string }>(`/api/products/${UNKNOWN_ID}/images`);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Product not found');
    expect((await get('/api/products/123/images')).status).toBe(400);
  });
});

describe('GET /api/products/with-distance', () => {
  const url = (query = '') => `/api/products/with-distance${query ? `?${query}` : ''}`;

  it('is for signed-in users only', async () => {
    const { status, body } = await get<{ message: string }>(url());
    expect(status).toBe(401);
    expect(body.message).toBe('Unauthorized');
  });

  it('measures miles between the primary addresses, nearest first, products without a distance last', async () => {
    const { status, body } = await get<ProductListItem[]>(url(), buyer);
    expect(status).toBe(200);
    expect(names(body)).toEqual([
      // Sal, 4.35 mi: newest first among the same seller.
      'Oak Table',
      'Table Lamp',
      '50% Off Chair',
      'Garden Hose',
      'Prairie Quilt',
      // No coordinates (an unknown ZIP, no address at all): newest first.
      'Mystery Box',
      'Lost Kite',
    ]);
    const distance = (name: string) => body.find((p) => p.name === name)?.distance;
    expect(Math.abs((distance('Oak Table') ?? 0) - MILES.near)).toBeLessThanOrEqual(0.5);
    expect(Math.abs((distance('Garden Hose') ?? 0) - MILES.oakBrook)).toBeLessThanOrEqual(0.5);
    expect(Math.abs((distance('Prairie Quilt') ?? 0) - MILES.springfield)).toBeLessThanOrEqual(0.5);
    expect(distance('Mystery Box')).toBeNull();
    expect(distance('Lost Kite')).toBeNull();
    // The card's other fields are the list's.
    expect(body.find((p) => p.name === 'Oak Table')).toMatchObject({
      sellerRating: 4.3,
      sellerCity: 'Chicago',
    });
  });

  it('lists a rare word’s matches nearest first, then those without a distance, each once', async () => {
    // "os": Garden Hose (Oak Brook) and Lost Kite (a seller without an address); few enough that
    // they are read from the matches (docs/decisions/0030-ten-times-the-data.md, Nearest first, the plan sampled).
    const found = (await get<ProductListItem[]>(url('search=os'), buyer)).body;
    expect(names(found)).toEqual(['Garden Hose', 'Lost Kite']);
    expect(Math.abs((found[0]?.distance ?? 0) - MILES.oakBrook)).toBeLessThanOrEqual(0.5);
    expect(found[1]?.distance).toBeNull();
    expect(names((await get<ProductListItem[]>(url('search=OS&offset=1'), buyer)).body)).toEqual([
      'Lost Kite',
    ]);
    expect(names((await get<ProductListItem[]>(url('search=os&maxDistance=100'), buyer)).body)).toEqual([
      'Garden Hose',
    ]);
  });

  it('keeps products within maxDistance and leaves out those without a distance', async () => {
    expect(names((await get<ProductListItem[]>(url('maxDistance=10'), buyer)).body)).toEqual([
      'Oak Table',
      'Table Lamp',
      '50% Off Chair',
    ]);
    expect(names((await get<ProductListItem[]>(url('maxDistance=20'), buyer)).body)).toEqual([
      'Oak Table',
      'Table Lamp',
      '50% Off Chair',
      'Garden Hose',
    ]);
    expect(names((await get<ProductListItem[]>(url('maxDistance=499'), buyer)).body)).toHaveLength(5);
    expect((await get<ProductListItem[]>(url('maxDistance=1'), buyer)).body).toEqual([]);
  });

  it('reads 500 as any distance (docs/rules/catalog-and-orders.md, Catalog and distance)', async () => {
    const any = await get<ProductListItem[]>(url('maxDistance=500'), buyer);
    expect(any.body).toEqual((await get<ProductListItem[]>(url(), buyer)).body);
    expect(any.body).toHaveLength(7);
  });

  it('searches, filters and pages like the list, across the products without a distance', async () => {
    expect(names((await get<ProductListItem[]>(url('search=TABLE&maxDistance=10'), buyer)).body)).toEqual([
      'Oak Table',
      'Table Lamp',
    ]);
    expect(
      names(
        (await get<ProductListItem[]>(url(`category=${encodeURIComponent('Home & Garden')}`), buyer)).body,
      ),
    ).toEqual(['Table Lamp', 'Garden Hose', 'Prairie Quilt']);
    const all = names((await get<ProductListItem[]>(url(), buyer)).body);
    for (const limit of [1, 2, 3, 4]) {
      const pages: string[] = [];
      for (let offset = 0; offset < 9; offset += limit)
        pages.push(
          ...names((await get<ProductListItem[]>(url(`limit=${limit}&offset=${offset}`), buyer)).body),
        );
      expect(pages, `limit ${limit}`).toEqual(all);
    }
    expect((await get<ProductListItem[]>(url('offset=50'), buyer)).body).toEqual([]);
  });

  it('gives no distance to a buyer without a primary address', async () => {
    const all = await get<ProductListItem[]>(url(), homeless);
    expect(names(all.body)).toEqual(AVAILABLE_NEWEST_FIRST);
    expect(all.body.every((p) => p.distance === null)).toBe(true);
    expect((await get<ProductListItem[]>(url('maxDistance=50'), homeless)).body).toEqual([]);
  });

  it('refuses a distance outside 1 to 500 miles', async () => {
    for (const value of ['0', '501', 'far', '-3']) {
      const bad = await get<{ fields: Record<string, string> }>(url(`maxDistance=${value}`), buyer);
      expect(bad.status, value).toBe(400);
      expect(Object.keys(bad.body.fields)).toEqual(['maxDistance']);
    }
  });
});

describe('GET /api/categories', () => {
  it('lists the categories by name', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/categories' });
    const list = response.json<{ name: string }[]>().map((c) => c.name);
    expect(list).toContain('Electronics');
    expect(list).toEqual([...list].sort((a, b) => a.localeCompare(b)));
  });
});

describe('the OpenAPI document', () => {
  it('describes every catalog call with its responses', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
    }>();
    for (const [path, codes] of [
      ['/api/products', ['200', '400']],
      ['/api/products/with-distance', ['200', '400', '401']],
      ['/api/products/{id}', ['200', '400', '404']],
      ['/api/products/{id}/images', ['200', '400', '404']],
      ['/api/categories', ['200', '400']],
    ] as const) {
      // Each call's own answers, and the ones every call may give (a database away: 503).
      expect(Object.keys(doc.paths[path]?.get?.responses ?? {}), path).toEqual(
        expect.arrayContaining([...codes, '503']),
      );
    }
  });
});
