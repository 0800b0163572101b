import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  adminOrdersQuerySchema,
  commissionSettingsBodySchema,
  driverVerificationStatus,
  offsetOf,
  orderDateRangeOf,
  orderFlagOf,
  pageCountOf,
  percentToRate,
  rateToPercent,
} from './admin';
import { ORDER_STATUSES } from './order-status';
import { formatRate } from './money';

describe('the commission form: rates as percentages (docs/rules/screens-work.md, Admin screens)', () => {
  it('shows stored fractions as percentages and sends percentages back as fractions with 4 decimals', () => {
    expect(rateToPercent('0.1000')).toBe('10');
    expect(rateToPercent('0.0650')).toBe('6.5');
    expect(rateToPercent('0.0001')).toBe('0.01');
    expect(rateToPercent('1.0000')).toBe('100');
    expect(percentToRate('6.5')).toBe('0.0650');
    expect(percentToRate('12.34')).toBe('0.1234');
    expect(percentToRate('100')).toBe('1.0000');
    expect(percentToRate('0')).toBe('0.0000');
  });

  it('loses nothing on the way there and back, for every rate from 0 to 1', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), (basisPoints) => {
        const rate = formatRate(basisPoints);
        expect(percentToRate(rateToPercent(rate))).toBe(rate);
      }),
    );
  });
});

describe('the commission settings body (docs/rules/known-differences.md, Admin)', () => {
  const valid = {
    baseCommissionRate: '0.1',
    minCommissionRate: '0.02',
    salesPriceTierAmount: '500',
    salesPriceTierReduction: '0.0100',
    deliveryFeeTierAmount: '0',
    deliveryFeeTierReduction: '0.01',
    loyaltyTierAmount: '99999999.99',
    loyaltyTierReduction: '1',
  };

  it('takes rates from 0 to 1 with up to 4 decimals and amounts of at least 0 with up to 2', () => {
    expect(commissionSettingsBodySchema.safeParse(valid).success).toBe(true);
  });

  it.each([
    ['baseCommissionRate', '1.0001'],
    ['baseCommissionRate', '0.12345'],
    ['minCommissionRate', '-0.01'],
    ['salesPriceTierAmount', '1.005'],
    ['salesPriceTierAmount', '100000000'],
    ['deliveryFeeTierAmount', '-1'],
    ['loyaltyTierReduction', 'ten'],
    ['loyaltyTierReduction', '1e-2'],
    ['loyaltyTierAmount', ''],
  ])('refuses %s = %j, naming the field', (field, value) => {
    const parsed = commissionSettingsBodySchema.safeParse({ ...valid, [field]: value });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path.join('.'))).toEqual([field]);
  });

  it('refuses a minimum rate above the base rate, on the minimum', () => {
    const parsed = commissionSettingsBodySchema.safeParse({ ...valid, minCommissionRate: '0.2' });
    expect(parsed.error?.issues).toMatchObject([
      { path: ['minCommissionRate'], message: 'The minimum rate cannot be above the base rate' },
    ]);
  });
});

describe('admin paging and driver status', () => {
  it('pages 10 rows at a time', () => {
    expect(offsetOf(1)).toBe(0);
    expect(offsetOf(3)).toBe(20);
    expect(pageCountOf(0)).toBe(0);
    expect(pageCountOf(10)).toBe(1);
    expect(pageCountOf(1000)).toBe(100);
    expect(pageCountOf(1001)).toBe(101);
  });

  it('says what the verification card shows', () => {
    const base = { isVerified: false, vehicleImageUrl: '/v', licenseImageUrl: '/l', lastDecision: null };
    const decided = (decision: 'approved' | 'rejected' | 'revoked') => ({
      decision,
      at: '2026-11-22T10:00:00.000Z',
      adminName: 'Ada Admin',
    });
    expect(driverVerificationStatus(base)).toBe('awaiting-review');
    expect(driverVerificationStatus({ ...base, licenseImageUrl: null })).toBe('missing-images');
    expect(driverVerificationStatus({ ...base, isVerified: true, lastDecision: decided('approved') })).toBe(
      'verified',
    );
    expect(driverVerificationStatus({ ...base, lastDecision: decided('rejected') })).toBe('rejected');
    expect(driverVerificationStatus({ ...base, lastDecision: decided('revoked') })).toBe('revoked');
  });
});

describe('the admin order search (docs/rules/known-differences.md, Admin)', () => {
  it('takes the parties and a range of days, and names a bad date or a range that ends before it starts', () => {
    const parsed = adminOrdersQuerySchema.parse({ buyer: ' Ada ', from: '2026-03-01', to: '2026-03-31' });
    expect(parsed).toMatchObject({
      buyer: 'Ada',
      from: '2026-03-01',
      to: '2026-03-31',
      status: 'all',
      page: 1,
    });
    expect(adminOrdersQuerySchema.safeParse({ from: '', to: '' }).success).toBe(true);
    for (const [field, value] of [
      ['from', '2026-02-30'],
      ['to', '03/01/2026'],
      ['from', '2026-3-1'],
    ] as const) {
      const bad = adminOrdersQuerySchema.safeParse({ [field]: value });
      expect(bad.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
        [field, 'Must be a date like 2026-11-23 (YYYY-MM-DD)'],
      ]);
    }
    const backwards = adminOrdersQuerySchema.safeParse({ from: '2026-03-02', to: '2026-03-01' });
    expect(backwards.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['to', 'Must be on or after the from date'],
    ]);
    expect(adminOrdersQuerySchema.safeParse({ from: '2026-03-02', to: '2026-03-02' }).success).toBe(true);
  });

  it('turns days of the marketplace time zone into instants, both ends included', () => {
    // Chicago is 6 hours behind UTC in winter and 5 in summer; the range ends at the next midnight.
    expect(orderDateRangeOf({ from: '2026-01-15', to: '2026-01-15' }, 'America/Chicago')).toEqual({
      from: new Date('2026-01-15T06:00:00.000Z'),
      before: new Date('2026-01-16T06:00:00.000Z'),
    });
    // The day the clocks spring forward has 23 hours.
    expect(orderDateRangeOf({ from: '2026-03-08', to: '2026-03-08' }, 'America/Chicago')).toEqual({
      from: new Date('2026-03-08T06:00:00.000Z'),
      before: new Date('2026-03-09T05:00:00.000Z'),
    });
    expect(orderDateRangeOf({ to: '2026-12-31' }, 'UTC')).toEqual({
      from: undefined,
      before: new Date('2027-01-01T00:00:00.000Z'),
    });
    expect(orderDateRangeOf({ from: '' }, 'UTC')).toEqual({ from: undefined, before: undefined });
  });

  it('flags an order not finished whose buyer, seller or driver is suspended, the first that applies', () => {
    const nobody = { buyerSuspended: false, sellerSuspended: false, driverSuspended: false };
    for (const status of ORDER_STATUSES) {
      const open = !['delivered', 'completed', 'cancelled'].includes(status);
      expect(orderFlagOf({ status, ...nobody })).toBeNull();
      expect(orderFlagOf({ status, ...nobody, sellerSuspended: true })).toBe(
        open ? 'Seller suspended' : null,
      );
      expect(orderFlagOf({ status, ...nobody, driverSuspended: true })).toBe(
        open ? 'Driver suspended' : null,
      );
      expect(
        orderFlagOf({ status, buyerSuspended: true, sellerSuspended: true, driverSuspended: true }),
      ).toBe(open ? 'Buyer suspended' : null);
    }
  });
});
