import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { splitLostAmount, splitTakeBack } from './money-split';

/** An order's earnings: seller + driver + fee = total, each whole cents. */
const orderArb = fc
  .record({
    seller: fc.integer({ min: 0, max: 500_000 }),
    driver: fc.integer({ min: 0, max: 20_000 }),
    fee: fc.integer({ min: 0, max: 60_000 }),
  })
  .filter((o) => o.seller + o.driver + o.fee > 0)
  .map((o) => ({ ...o, total: o.seller + o.driver + o.fee }));

/** An order and a sequence of take-backs that never exceed it (cut at what is left). */
const sequenceArb = orderArb.chain((order) =>
  fc.array(fc.integer({ min: 1, max: order.total }), { minLength: 1, maxLength: 8 }).map((asks) => {
    let left = order.total;
    const amounts: number[] = [];
    for (const ask of asks) {
      if (left === 0) break;
      const amount = Math.min(ask, left);
      amounts.push(amount);
      left -= amount;
    }
    return { order, amounts };
  }),
);

describe('splitTakeBack (docs/decisions/0022-money-in-combinations.md)', () => {
  it('splits every take-back into parts that sum to it, none above what is left of what it earned', () => {
    fc.assert(
      fc.property(sequenceArb, ({ order, amounts }) => {
        const taken = { seller: 0, driver: 0, fee: 0 };
        for (const amount of amounts) {
          const split = splitTakeBack({
            total: order.total,
            seller: { earned: order.seller, taken: taken.seller },
            driver: { earned: order.driver, taken: taken.driver },
            platformFee: { earned: order.fee, taken: taken.fee },
            amount,
          });
          expect(split.seller + split.driver + split.platformFee).toBe(amount);
          for (const part of [split.seller, split.driver, split.platformFee])
            expect(part).toBeGreaterThanOrEqual(0);
          taken.seller += split.seller;
          taken.driver += split.driver;
          taken.fee += split.platformFee;
          expect(taken.seller).toBeLessThanOrEqual(order.seller);
          expect(taken.driver).toBeLessThanOrEqual(order.driver);
          expect(taken.fee).toBeLessThanOrEqual(order.fee);
        }
      }),
    );
  });

  it("takes back exactly each one's earnings once the whole order is taken back, in any steps", () => {
    fc.assert(
      fc.property(sequenceArb, ({ order, amounts }) => {
        const rest = order.total - amounts.reduce((a, b) => a + b, 0);
        const all = rest > 0 ? [...amounts, rest] : amounts;
        const taken = { seller: 0, driver: 0, fee: 0 };
        for (const amount of all) {
          const split = splitTakeBack({
            total: order.total,
            seller: { earned: order.seller, taken: taken.seller },
            driver: { earned: order.driver, taken: taken.driver },
            platformFee: { earned: order.fee, taken: taken.fee },
            amount,
          });
          taken.seller += split.seller;
          taken.driver += split.driver;
          taken.fee += split.platformFee;
        }
        expect(taken).toEqual({ seller: order.seller, driver: order.driver, fee: order.fee });
      }),
    );
  });

  it('refuses a take-back beyond what is left of the order', () => {
    const order = { seller: 3_240, driver: 900, fee: 460 };
    const total = 4_600;
    const ask = (amount: number, taken = { seller: 0, driver: 0, fee: 0 }) =>
      splitTakeBack({
        total,
        seller: { earned: order.seller, taken: taken.seller },
        driver: { earned: order.driver, taken: taken.driver },
        platformFee: { earned: order.fee, taken: taken.fee },
        amount,
      });
    expect(ask(1_000)).toEqual({ seller: 704, driver: 196, platformFee: 100 });
    expect(() => ask(4_601)).toThrow(RangeError);
    expect(() => ask(0)).toThrow(RangeError);
    expect(() => ask(3_601, { seller: 704, driver: 196, fee: 100 })).toThrow(RangeError);
  });
});

describe('splitLostAmount (docs/decisions/0022-money-in-combinations.md, A lost dispute)', () => {
  it('splits by what is left of each order, never more than is left of one, and names the rest as a loss', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.array(fc.integer({ min: 0, max: 400_000 }), { minLength: 1, maxLength: 3 }),
        (amount, left) => {
          const { parts, loss } = splitLostAmount(amount, left);
          expect(parts).toHaveLength(left.length);
          expect(parts.reduce((a, b) => a + b, 0) + loss).toBe(amount);
          parts.forEach((part, i) => {
            expect(part).toBeGreaterThanOrEqual(0);
            expect(part).toBeLessThanOrEqual(left[i] ?? 0);
          });
          const whole = left.reduce((a, b) => a + b, 0);
          expect(loss).toBe(Math.max(0, amount - whole));
        },
      ),
    );
  });

  it('gives a refunded or cancelled order only what is left of it', () => {
    // Two orders of $35.00 and $50.00; the first refunded $30.00: a dispute of the $55.00 left.
    expect(splitLostAmount(5_500, [500, 5_000])).toEqual({ parts: [500, 5_000], loss: 0 });
    // The whole $85.00 disputed after the $30.00 refund: $30.00 is the platform's loss.
    expect(splitLostAmount(8_500, [500, 5_000])).toEqual({ parts: [500, 5_000], loss: 3_000 });
    // A cancelled order has nothing left and gets nothing.
    expect(splitLostAmount(5_000, [0, 5_000])).toEqual({ parts: [0, 5_000], loss: 0 });
    expect(splitLostAmount(1_000, [3_333, 3_333, 3_334])).toEqual({ parts: [333, 333, 334], loss: 0 });
  });
});
