import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ORDER_STATUSES } from './order-status';
import { remainingReviewPairs, reviewBodySchema, reviewPairsFor, type ReviewableOrder } from './reviews';

// Who reviews whom (docs/rules/selling.md, Reviews and messages).
const delivered: ReviewableOrder = { status: 'delivered', buyerId: 'b', sellerId: 's', driverId: 'd' };

describe('reviewPairsFor', () => {
  it('pairs buyer and seller, buyer and driver, seller and driver, each way', () => {
    expect(reviewPairsFor(delivered, 'b')).toEqual([
      { reviewerRole: 'buyer', revieweeId: 's', revieweeRole: 'seller' },
      { reviewerRole: 'buyer', revieweeId: 'd', revieweeRole: 'driver' },
    ]);
    expect(reviewPairsFor(delivered, 's').map((p) => p.revieweeRole)).toEqual(['buyer', 'driver']);
    expect(reviewPairsFor(delivered, 'd').map((p) => p.revieweeRole)).toEqual(['buyer', 'seller']);
  });

  it('offers nothing before the order is delivered or completed, and nothing to outsiders', () => {
    for (const status of ORDER_STATUSES) {
      const pairs = reviewPairsFor({ ...delivered, status }, 'b');
      expect(pairs.length > 0, status).toBe(status === 'delivered' || status === 'completed');
    }
    expect(reviewPairsFor(delivered, 'admin')).toEqual([]);
  });

  it('has no driver pairs without a driver, and never pairs someone with themself', () => {
    const pickup = { ...delivered, status: 'completed' as const, driverId: null };
    expect(reviewPairsFor(pickup, 's')).toEqual([
      { reviewerRole: 'seller', revieweeId: 'b', revieweeRole: 'buyer' },
    ]);
    // A driver who delivered their own purchase reviews the seller once.
    const ownDelivery = { ...delivered, driverId: 'b' };
    expect(reviewPairsFor(ownDelivery, 'b')).toEqual([
      { reviewerRole: 'buyer', revieweeId: 's', revieweeRole: 'seller' },
    ]);
  });

  it('never lists a reviewee twice or the reviewer, whoever holds which capacity', () => {
    const person = fc.constantFrom('x', 'y', 'z');
    fc.assert(
      fc.property(
        person,
        person,
        fc.option(person, { nil: null }),
        person,
        (buyerId, sellerId, driverId, reviewer) => {
          const pairs = reviewPairsFor({ status: 'delivered', buyerId, sellerId, driverId }, reviewer);
          const ids = pairs.map((p) => p.revieweeId);
          expect(new Set(ids).size).toBe(ids.length);
          expect(ids).not.toContain(reviewer);
        },
      ),
    );
  });

  it('leaves out the reviewees already reviewed', () => {
    expect(remainingReviewPairs(delivered, 'b', ['s']).map((p) => p.revieweeId)).toEqual(['d']);
    expect(remainingReviewPairs(delivered, 'b', ['s', 'd'])).toEqual([]);
  });
});

describe('reviewBodySchema', () => {
  const body = {
    orderId: '0d2c1f5e-8a4b-4c3d-9e2f-1a2b3c4d5e6f',
    revieweeId: '1d2c1f5e-8a4b-4c3d-9e2f-1a2b3c4d5e6f',
    revieweeRole: 'seller',
    reviewerRole: 'buyer',
    rating: 5,
  };

  it('takes a whole-number rating from 1 to 5 only', () => {
    for (const rating of [1, 2, 3, 4, 5])
      expect(reviewBodySchema.safeParse({ ...body, rating }).success).toBe(true);
    for (const rating of [0, 6, 2.5, '5', null, Number.NaN])
      expect(reviewBodySchema.safeParse({ ...body, rating }).success, String(rating)).toBe(false);
  });

  it('trims the comment, and an empty one is none', () => {
    expect(reviewBodySchema.parse({ ...body, comment: '  Great  ' }).comment).toBe('Great');
    expect(reviewBodySchema.parse({ ...body, comment: '   ' }).comment).toBeNull();
    expect(reviewBodySchema.parse(body).comment).toBeNull();
  });
});
