import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyRate, formatCents, formatMoney, formatRate, formatUsd, parseCents, parseRate } from './money';

describe('cents', () => {
  it('parses decimal strings to integer cents, rounding half up', () => {
    expect(parseCents('1250.00')).toBe(125000);
    expect(parseCents('12.5')).toBe(1250);
    expect(parseCents('12')).toBe(1200);
    expect(parseCents('0.005')).toBe(1);
    expect(parseCents('0.00499')).toBe(0);
    expect(parseCents('2.675')).toBe(268);
    expect(parseCents('-3.10')).toBe(-310);
    expect(parseCents(' 7.01 ')).toBe(701);
  });

  it('refuses what is not a decimal', () => {
    for (const bad of ['', 'abc', '1e3', '1,000.00', '.5', '--1']) {
      expect(() => parseCents(bad), bad).toThrow(RangeError);
    }
  });

  it('formats cents with two places', () => {
    expect(formatCents(125000)).toBe('1250.00');
    expect(formatCents(5)).toBe('0.05');
    expect(formatCents(0)).toBe('0.00');
    expect(formatCents(-5)).toBe('-0.05');
    expect(() => formatCents(1.5)).toThrow(RangeError);
  });

  it('round-trips every whole number of cents', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (cents) => {
        expect(parseCents(formatCents(cents))).toBe(cents);
      }),
    );
  });

  it('formats dollars for display', () => {
    expect(formatUsd(125000)).toBe('$1,250.00');
    expect(formatUsd(99)).toBe('$0.99');
    expect(formatUsd(-123456789)).toBe('-$1,234,567.89');
  });
});

describe('rates', () => {
  it('parses 4-place rates to basis points and back', () => {
    expect(parseRate('0.0600')).toBe(600);
    expect(parseRate('0.1')).toBe(1000);
    expect(parseRate('1')).toBe(10000);
    expect(parseRate('0.00005')).toBe(1);
    expect(formatRate(600)).toBe('0.0600');
    expect(formatRate(10000)).toBe('1.0000');
  });

  it('applies a rate rounding half up to the cent', () => {
    expect(applyRate(120000, 600)).toBe(7200);
    expect(applyRate(5000, 1000)).toBe(500);
    expect(applyRate(25, 1000)).toBe(3); // 0.25 × 0.10 = 0.025 → 0.03
    expect(applyRate(24, 1000)).toBe(2); // 0.024 → 0.02
    expect(applyRate(0, 1000)).toBe(0);
    expect(applyRate(-25, 1000)).toBe(-3);
  });

  it('never loses a cent against exact rational arithmetic', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e10 }), fc.integer({ min: 0, max: 10000 }), (cents, bp) => {
        const exact = BigInt(cents) * BigInt(bp);
        const expected = (exact * 2n + 10000n) / 20000n; // floor(x / 10000 + 1/2)
        expect(applyRate(cents, bp)).toBe(Number(expected));
      }),
    );
  });
});

describe('formatMoney (docs/rules/screens-shared.md, Client behaviour)', () => {
  it('groups thousands and keeps 2 decimals, from a decimal string or a number of dollars', () => {
    expect(formatMoney('1250.00')).toBe('$1,250.00');
    expect(formatMoney('1234567.5')).toBe('$1,234,567.50');
    expect(formatMoney('999.99')).toBe('$999.99');
    expect(formatMoney(2499.9)).toBe('$2,499.90');
    expect(formatMoney(0.1 + 0.2)).toBe('$0.30');
    expect(formatMoney(-5)).toBe('-$5.00');
  });

  it('shows what is not an amount as $0.00', () => {
    for (const bad of ['abc', '', Number.NaN, Number.POSITIVE_INFINITY, null, undefined]) {
      expect(formatMoney(bad)).toBe('$0.00');
    }
  });
});
