import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import { buy, createAddress, createProduct, type OrderJson } from '../../testing/commerce';
import { orders, reviews } from '../../db/schema';
import type { OrderStatus } from '../../../domain/order-status';

/**
 * Reviews (docs/rules/selling.md, Reviews and messages): only on delivered or completed orders, only
 * between the allowed pairs, once per order, reviewer and reviewee, a whole-number rating 1 to 5.
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

interface Scene {
  buyer: TestUser;
  seller: TestUser;
  driver: TestUser;
  stranger: TestUser;
  admin: TestUser;
  order: OrderJson;
  productId: string;
}

/** A paid order from buyer to seller, set to `status`, with the driver on it unless `driver` is false. */
async function scene(status: OrderStatus, options: { driver?: boolean } = {}): Promise<Scene> {
  const buyer = await signedInAs(t, 'buyer', { firstName: 'Bea', lastName: 'Buyer' });
  const seller = await signedInAs(t, 'seller', { firstName: 'Sol', lastName: 'Seller' });
  const driver = await signedInAs(t, 'driver', { isVerified: true, firstName: 'Dee', lastName: 'Driver' });
  const stranger = await signedInAs(t, 'buyer');
  const admin = await signedInAs(t, 'admin');
  const address = await createAddress(t, buyer.id);
  await createAddress(t, seller.id);
  const product = await createProduct(t, seller.id, { stock: 5 });
  const [order] = await buy(t, buyer, {
    items: [{ productId: product.id, quantity: 1 }],
    isPickup: false,
    deliveryAddressId: address.id,
  });
  if (!order) throw new Error('no order');
  // The status path itself is tested with the orders; here only where the order stands matters.
  await t.database.db
    .update(orders)
    .set({ status, driverId: options.driver === false ? null : driver.id })
    .where(eq(orders.id, order.id));
  return { buyer, seller, driver, stranger, admin, order, productId: product.id };
}

type Party = 'buyer' | 'seller' | 'driver';

function review(from: TestUser, s: Scene, to: Party, as_: Party, extra: Record<string, unknown> = {}) {
  return as(t, from, {
    method: 'POST',
    url: '/api/reviews',
    payload: {
      orderId: s.order.id,
      revieweeId: s[to].id,
      revieweeRole: to,
      reviewerRole: as_,
      rating: 4,
      comment: 'Good to deal with',
      ...extra,
    },
  });
}

interface OrderReviewsJson {
  reviews: { reviewerId: string; revieweeId: string; rating: number }[];
  prompts: { userId: string; name: string; role: string; reviewerRole: string }[];
}

const orderReviews = (user: TestUser | undefined, s: Scene) =>
  as(t, user, { method: 'GET', url: `/api/reviews/order/${s.order.id}` });

describe('when an order can be reviewed', () => {
  it('only once it is delivered or completed; pending, on its way or cancelled is a 409', async () => {
    for (const status of ['pending', 'assigned', 'in-transit', 'cancelled'] as const) {
      const s = await scene(status);
      const refused = await review(s.buyer, s, 'seller', 'buyer');
      expect(refused.statusCode, status).toBe(409);
      expect(refused.json().message).toBe('Reviews open once the order is delivered or completed.');
      expect((await orderReviews(s.buyer, s)).json<OrderReviewsJson>().prompts).toEqual([]);
    }
    for (const status of ['delivered', 'completed'] as const) {
      const s = await scene(status);
      const written = await review(s.buyer, s, 'seller', 'buyer');
      expect(written.statusCode, `${status}: ${written.body}`).toBe(201);
      expect(written.json()).toMatchObject({
        orderId: s.order.id,
        reviewerId: s.buyer.id,
        revieweeId: s.seller.id,
        reviewerRole: 'buyer',
        revieweeRole: 'seller',
        rating: 4,
        comment: 'Good to deal with',
        reviewerName: 'Bea Buyer',
      });
    }
  });
});

describe('who reviews whom', () => {
  it('lets buyer and seller, buyer and driver, seller and driver review each other', async () => {
    const s = await scene('delivered');
    const pairs: [Party, Party][] = [
      ['buyer', 'seller'],
      ['buyer', 'driver'],
      ['seller', 'buyer'],
      ['seller', 'driver'],
      ['driver', 'buyer'],
      ['driver', 'seller'],
    ];
    for (const [from, to] of pairs) {
      const written = await review(s[from], s, to, from);
      expect(written.statusCode, `${from} reviews ${to}: ${written.body}`).toBe(201);
    }
    const stored = await t.database.db.select().from(reviews).where(eq(reviews.orderId, s.order.id));
    expect(stored).toHaveLength(6);
  });

  it('answers 404 to someone who may not see the order, and 400 for anyone outside the pairs', async () => {
    const s = await scene('delivered');
    expect((await review(s.stranger, s, 'seller', 'buyer')).statusCode).toBe(404);
    expect((await orderReviews(s.stranger, s)).statusCode).toBe(404);
    // Admins see every order but are not one of its parties.
    const byAdmin = await review(s.admin, s, 'seller', 'buyer');
    expect(byAdmin.statusCode).toBe(400);
    expect(byAdmin.json().fields).toHaveProperty('revieweeId');
    // Nobody reviews themself, or someone who is not on the order.
    const self = await as(t, s.buyer, {
      method: 'POST',
      url: '/api/reviews',
      payload: {
        orderId: s.order.id,
        revieweeId: s.buyer.id,
        revieweeRole: 'buyer',
        reviewerRole: 'buyer',
        rating: 5,
      },
    });
    expect(self.statusCode).toBe(400);
    const outsider = await as(t, s.buyer, {
      method: 'POST',
      url: '/api/reviews',
      payload: {
        orderId: s.order.id,
        revieweeId: s.stranger.id,
        revieweeRole: 'seller',
        reviewerRole: 'buyer',
        rating: 5,
      },
    });
    expect(outsider.statusCode).toBe(400);
    // The roles sent must be the ones held on the order.
    const wrongRoles = await review(s.buyer, s, 'seller', 'driver');
    expect(wrongRoles.statusCode).toBe(400);
    expect(wrongRoles.json().fields).toHaveProperty('reviewerRole');
    const wrongReviewee = await as(t, s.buyer, {
      method: 'POST',
      url: '/api/reviews',
      payload: {
        orderId: s.order.id,
        revieweeId: s.seller.id,
        revieweeRole: 'driver',
        reviewerRole: 'buyer',
        rating: 5,
      },
    });
    expect(wrongReviewee.statusCode).toBe(400);
    expect(wrongReviewee.json().fields).toHaveProperty('revieweeRole');
    expect(await t.database.db.select().from(reviews).where(eq(reviews.orderId, s.order.id))).toEqual([]);
  });

  it('has no driver pairs on an order no driver delivered', async () => {
    const s = await scene('delivered', { driver: false });
    expect((await review(s.buyer, s, 'driver', 'buyer')).statusCode).toBe(400);
    expect((await review(s.driver, s, 'seller', 'driver')).statusCode).toBe(404);
    const prompts = (await orderReviews(s.seller, s)).json<OrderReviewsJson>().prompts;
    expect(prompts).toEqual([
      { userId: s.buyer.id, name: 'Bea Buyer', role: 'buyer', reviewerRole: 'seller' },
    ]);
  });
});

describe('once per order, reviewer and reviewee', () => {
  it('refuses a second review of the same person on the same order with a 409', async () => {
    const s = await scene('delivered');
    expect((await review(s.buyer, s, 'seller', 'buyer')).statusCode).toBe(201);
    const again = await review(s.buyer, s, 'seller', 'buyer', { rating: 1, comment: 'Changed my mind' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('You have already reviewed the seller of this order.');
    // The same reviewer may still review the order's other party, and the reviewee may answer.
    expect((await review(s.buyer, s, 'driver', 'buyer')).statusCode).toBe(201);
    expect((await review(s.seller, s, 'buyer', 'seller')).statusCode).toBe(201);
    const stored = await t.database.db.select().from(reviews).where(eq(reviews.orderId, s.order.id));
    expect(
      stored.find((row) => row.reviewerId === s.buyer.id && row.revieweeId === s.seller.id)?.rating,
    ).toBe(4);
  });
});

describe('the rating', () => {
  it('is a whole number from 1 to 5: 0, 6, 2.5 and "5" are 400s', async () => {
    const s = await scene('delivered');
    for (const rating of [0, 6, 2.5, '5', null, -1]) {
      const refused = await review(s.buyer, s, 'seller', 'buyer', { rating });
      expect(refused.statusCode, JSON.stringify(rating)).toBe(400);
      expect(refused.json().fields.rating).toBe('Rating must be a whole number from 1 to 5');
    }
    const { rating: _rating, ...withoutRating } = {
      orderId: s.order.id,
      revieweeId: s.seller.id,
      revieweeRole: 'seller',
      reviewerRole: 'buyer',
      rating: 5,
    };
    const missing = await as(t, s.buyer, { method: 'POST', url: '/api/reviews', payload: withoutRating });
    expect(missing.statusCode).toBe(400);
    expect(await t.database.db.select().from(reviews).where(eq(reviews.orderId, s.order.id))).toEqual([]);
    for (const rating of [1, 5]) {
      const to: Party = rating === 1 ? 'seller' : 'driver';
      expect((await review(s.buyer, s, to, 'buyer', { rating, comment: '  ' })).statusCode).toBe(201);
    }
    const stored = await t.database.db.select().from(reviews).where(eq(reviews.orderId, s.order.id));
    expect(stored.map((row) => row.comment)).toEqual([null, null]);
  });
});

describe('the review prompts', () => {
  it('list each counterpart still to review, and none once all are given', async () => {
    const s = await scene('delivered');
    const before = (await orderReviews(s.buyer, s)).json<OrderReviewsJson>();
    expect(before.prompts).toEqual([
      { userId: s.seller.id, name: 'Sol Seller', role: 'seller', reviewerRole: 'buyer' },
      { userId: s.driver.id, name: 'Dee Driver', role: 'driver', reviewerRole: 'buyer' },
    ]);
    await review(s.buyer, s, 'seller', 'buyer');
    expect((await orderReviews(s.buyer, s)).json<OrderReviewsJson>().prompts.map((p) => p.role)).toEqual([
      'driver',
    ]);
    await review(s.buyer, s, 'driver', 'buyer');
    const after = (await orderReviews(s.buyer, s)).json<OrderReviewsJson>();
    expect(after.prompts).toEqual([]);
    expect(after.reviews).toHaveLength(2);
    // The others' prompts are their own.
    expect((await orderReviews(s.seller, s)).json<OrderReviewsJson>().prompts.map((p) => p.role)).toEqual([
      'buyer',
      'driver',
    ]);
  });
});

interface UserReviewsJson {
  averageRating: number | null;
  totalReviews: number;
  reviews: { rating: number; reviewerName: string; comment: string | null; revieweeRole: string }[];
}

describe("a user's reviews", () => {
  it('are public: the average with one decimal, the count and the reviews, newest first', async () => {
    const s = await scene('delivered');
    const empty = (await as(t, undefined, { method: 'GET', url: `/api/reviews/user/${s.seller.id}` })).json();
    expect(empty).toEqual({ averageRating: null, totalReviews: 0, reviews: [] });
    await review(s.buyer, s, 'seller', 'buyer', { rating: 5, comment: 'Lovely chair' });
    await review(s.driver, s, 'seller', 'driver', { rating: 4 });
    const second = await scene('completed');
    await as(t, second.buyer, {
      method: 'POST',
      url: '/api/reviews',
      payload: {
        orderId: second.order.id,
        revieweeId: second.seller.id,
        revieweeRole: 'seller',
        reviewerRole: 'buyer',
        rating: 4,
      },
    });
    const visitor = await as(t, undefined, { method: 'GET', url: `/api/reviews/user/${s.seller.id}` });
    expect(visitor.statusCode).toBe(200);
    const summary = visitor.json<UserReviewsJson>();
    expect(summary.totalReviews).toBe(2);
    expect(summary.averageRating).toBe(4.5);
    expect(summary.reviews.map((r) => [r.rating, r.reviewerName])).toEqual([
      [4, 'Dee Driver'],
      [5, 'Bea Buyer'],
    ]);
    expect(visitor.body).not.toContain(s.order.id);

    // The product's seller rating, on the card and the detail, comes from the same reviews.
    const product = await as(t, undefined, { method: 'GET', url: `/api/products/${s.productId}` });
    expect(product.json().sellerRating).toBe(4.5);

    // As a seller only: the reviews the user got as a seller.
    await review(s.seller, s, 'buyer', 'seller', { rating: 2 });
    const asBuyer = (
      await as(t, undefined, { method: 'GET', url: `/api/reviews/user/${s.buyer.id}?as=seller` })
    ).json<UserReviewsJson>();
    expect(asBuyer).toEqual({ averageRating: null, totalReviews: 0, reviews: [] });
    const all = (
      await as(t, undefined, { method: 'GET', url: `/api/reviews/user/${s.buyer.id}` })
    ).json<UserReviewsJson>();
    expect(all).toMatchObject({ averageRating: 2, totalReviews: 1 });

    const unknown = await as(t, undefined, {
      method: 'GET',
      url: '/api/reviews/user/00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(404);
  });
});
