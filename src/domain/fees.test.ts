import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  computeOrderMoney,
  DEFAULT_COMMISSION_RATES,
  deliveryCommissionRate,
  deliveryFeeFor,
  formatCommissionSettings,
  loyaltyDiscount,
  parseCommissionSettings,
  salesCommissionRate,
  splitBySeller,
  type CommissionRates,
} from './fees';
import { formatCents, formatRate } from './money';

const item = (overrides: Partial<Parameters<typeof deliveryFeeFor>[0][number]> = {}) => ({
  requiresTrailer: false,
  sellerDelivery: false,
  sellerDeliveryFee: null,
  ...overrides,
});

describe('deliveryFeeFor (docs/rules/catalog-and-orders.md, Checkout and orders)', () => {
  it('is 0 for pickup, whatever the items', () => {
    expect(deliveryFeeFor([item({ requiresTrailer: true })], true)).toEqual({
      deliveryFee: 0,
      sellerDelivery: false,
      requiresTrailer: true,
    });
  });

  it('is 10.00 by a driver, 50.00 when any item needs a trailer', () => {
    expect(deliveryFeeFor([item(), item()], false).deliveryFee).toBe(1000);
    expect(deliveryFeeFor([item(), item({ requiresTrailer: true })], false).deliveryFee).toBe(5000);
  });

  it('is the highest seller fee when every item is seller-delivered', () => {
    const fee = deliveryFeeFor(
      [
        item({ sellerDelivery: true, sellerDeliveryFee: 500 }),
        item({ sellerDelivery: true, sellerDeliveryFee: 1500 }),
        item({ sellerDelivery: true, sellerDeliveryFee: null }),
      ],
      false,
    );
    expect(fee).toEqual({ deliveryFee: 1500, sellerDelivery: true, requiresTrailer: false });
    expect(deliveryFeeFor([item({ sellerDelivery: true })], false).deliveryFee).toBe(0);
  });

  it('falls back to a driver when only some items are seller-delivered', () => {
    const fee = deliveryFeeFor([item({ sellerDelivery: true, sellerDeliveryFee: 300 }), item()], false);
    expect(fee).toEqual({ deliveryFee: 1000, sellerDelivery: false, requiresTrailer: false });
  });
});

describe('commission (docs/rules/money.md, Fees and commission)', () => {
  it('reproduces the worked example', () => {
    const money = computeOrderMoney(
      {
        productSubtotal: 1200_00,
        deliveryFee: 50_00,
        isPickup: false,
        sellerDelivery: false,
        seller30DaySales: 2350_00,
      },
      DEFAULT_COMMISSION_RATES,
    );
    expect(formatRate(money.loyaltyDiscount)).toBe('0.0200');
    expect(formatRate(money.salesCommissionRate)).toBe('0.0600');
    expect(formatRate(money.deliveryCommissionRate)).toBe('0.1000');
    expect(formatCents(money.purchasePlatformFee)).toBe('72.00');
    expect(formatCents(money.deliveryPlatformFee)).toBe('5.00');
    expect(formatCents(money.platformFee)).toBe('77.00');
    expect(formatCents(money.sellerEarnings)).toBe('1128.00');
    expect(formatCents(money.driverEarnings)).toBe('45.00');
    expect(formatCents(money.total)).toBe('1250.00');
  });

  it('caps loyalty at base − min and never goes below the minimum rate', () => {
    expect(loyaltyDiscount(1_000_000_00, DEFAULT_COMMISSION_RATES)).toBe(800);
    expect(salesCommissionRate(100_000_00, 1_000_000_00, DEFAULT_COMMISSION_RATES)).toBe(200);
    expect(salesCommissionRate(499_99, 999_99, DEFAULT_COMMISSION_RATES)).toBe(1000);
    expect(
      deliveryCommissionRate(10_00, { isPickup: false, sellerDelivery: false }, DEFAULT_COMMISSION_RATES),
    ).toBe(1000);
    expect(
      deliveryCommissionRate(1000_00, { isPickup: false, sellerDelivery: false }, DEFAULT_COMMISSION_RATES),
    ).toBe(500);
  });

  it('charges no delivery commission when the seller delivers, who keeps the whole fee', () => {
    const money = computeOrderMoney(
      {
        productSubtotal: 100_00,
        deliveryFee: 15_00,
        isPickup: false,
        sellerDelivery: true,
        seller30DaySales: 0,
      },
      DEFAULT_COMMISSION_RATES,
    );
    expect(money.deliveryCommissionRate).toBe(0);
    expect(money.deliveryPlatformFee).toBe(0);
    expect(money.sellerEarnings).toBe(100_00 - 10_00 + 15_00);
    expect(money.driverEarnings).toBe(0);
    expect(money.total).toBe(115_00);
  });

  it('has no delivery fee and no driver share for pickup', () => {
    const money = computeOrderMoney(
      {
        productSubtotal: 20_00,
        deliveryFee: 10_00,
        isPickup: true,
        sellerDelivery: false,
        seller30DaySales: 0,
      },
      DEFAULT_COMMISSION_RATES,
    );
    expect(money).toMatchObject({ deliveryFee: 0, driverEarnings: 0, total: 20_00, platformFee: 2_00 });
  });

  it('treats a tier amount of 0 as no tier instead of dividing by zero', () => {
    const rates = { ...DEFAULT_COMMISSION_RATES, salesPriceTierAmount: 0, loyaltyTierAmount: 0 };
    expect(salesCommissionRate(1000_00, 1000_00, rates)).toBe(1000);
  });

  it('round-trips the settings as strings', () => {
    const text = formatCommissionSettings(DEFAULT_COMMISSION_RATES);
    expect(text).toEqual({
      baseCommissionRate: '0.1000',
      minCommissionRate: '0.0200',
      salesPriceTierAmount: '500.00',
      salesPriceTierReduction: '0.0100',
      deliveryFeeTierAmount: '200.00',
      deliveryFeeTierReduction: '0.0100',
      loyaltyTierAmount: '1000.00',
      loyaltyTierReduction: '0.0100',
    });
    expect(parseCommissionSettings(text)).toEqual(DEFAULT_COMMISSION_RATES);
  });

  const rate = fc.integer({ min: 0, max: 10000 });
  const amount = fc.integer({ min: 0, max: 10_000_000_00 });
  const settings: fc.Arbitrary<CommissionRates> = fc.record({
    baseCommissionRate: rate,
    minCommissionRate: rate,
    salesPriceTierAmount: amount,
    salesPriceTierReduction: rate,
    deliveryFeeTierAmount: amount,
    deliveryFeeTierReduction: rate,
    loyaltyTierAmount: amount,
    loyaltyTierReduction: rate,
  });

  it('always splits the total exactly: seller + driver + platform = total', () => {
    fc.assert(
      fc.property(
        settings,
        amount,
        fc.integer({ min: 0, max: 1_000_000_00 }),
        fc.boolean(),
        fc.boolean(),
        amount,
        (rates, productSubtotal, deliveryFee, isPickup, sellerDelivery, seller30DaySales) => {
          const money = computeOrderMoney(
            { productSubtotal, deliveryFee, isPickup, sellerDelivery, seller30DaySales },
            rates,
          );
          expect(money.sellerEarnings + money.driverEarnings + money.platformFee).toBe(money.total);
          expect(money.total).toBe(money.productSubtotal + money.deliveryFee);
          expect(money.platformFee).toBe(money.purchasePlatformFee + money.deliveryPlatformFee);
          for (const share of [money.sellerEarnings, money.driverEarnings, money.platformFee])
            expect(share).toBeGreaterThanOrEqual(0);
          for (const value of Object.values(money)) expect(Number.isSafeInteger(value)).toBe(true);
          expect(money.salesCommissionRate).toBeLessThanOrEqual(10000);
          if (isPickup) expect(money.driverEarnings).toBe(0);
          if (isPickup || sellerDelivery) expect(money.deliveryCommissionRate).toBe(0);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('never charges less than the minimum rate nor more than the base (when min ≤ base)', () => {
    fc.assert(
      fc.property(settings, amount, amount, (rates, subtotal, sales) => {
        fc.pre(rates.minCommissionRate <= rates.baseCommissionRate);
        const salesRate = salesCommissionRate(subtotal, sales, rates);
        expect(salesRate).toBeGreaterThanOrEqual(rates.minCommissionRate);
        expect(salesRate).toBeLessThanOrEqual(rates.baseCommissionRate);
      }),
    );
  });
});

describe('splitBySeller', () => {
  it('makes one group per seller in the order sellers first appear', () => {
    const lines = [
      { sellerId: 'b', id: 1 },
      { sellerId: 'a', id: 2 },
      { sellerId: 'b', id: 3 },
    ];
    expect(splitBySeller(lines)).toEqual([
      { sellerId: 'b', lines: [lines[0], lines[2]] },
      { sellerId: 'a', lines: [lines[1]] },
    ]);
    expect(splitBySeller([])).toEqual([]);
  });

  it('keeps every line exactly once', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ sellerId: fc.constantFrom('a', 'b', 'c', 'd'), n: fc.nat() })),
        (lines) => {
          const groups = splitBySeller(lines);
          expect(groups.flatMap((g) => g.lines)).toHaveLength(lines.length);
          expect(new Set(groups.map((g) => g.sellerId)).size).toBe(groups.length);
          for (const group of groups)
            for (const line of group.lines) expect(line.sellerId).toBe(group.sellerId);
        },
      ),
    );
  });
});
