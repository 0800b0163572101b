import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RATE_TEXT_PATTERN } from './admin';
import { CALENDAR_DATE_PATTERN, isCalendarDate } from './availability';
import { CARD_EXPIRY_PATTERN, parseExpiry } from './checkout';
import { amountPatternUpTo, PRODUCT_PRICE_MAX_CENTS, SELLER_DELIVERY_FEE_MAX_CENTS } from './listings';
import { parseCents, parseRate } from './money';

/**
 * The rules the request schemas write as one regular expression, so that their JSON Schema carries
 * them (docs/ARCHITECTURE.md, Requests and errors), agree with the rules as computed.
 */
describe('the patterns of the request schemas', () => {
  it('takes exactly the real calendar dates of years 1000 to 9999', () => {
    const byCalendar = (year: number, month: number, day: number) => {
      const date = new Date(Date.UTC(2000, 0, 1));
      date.setUTCFullYear(year, month - 1, day);
      return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
    };
    fc.assert(
      fc.property(
        fc.integer({ min: 1000, max: 9999 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        (year, month, day) => {
          const text = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
          expect(isCalendarDate(text), text).toBe(byCalendar(year, month, day));
        },
      ),
      { numRuns: 5000 },
    );
    for (const leap of ['2000-02-29', '2028-02-29', '1600-02-29']) expect(isCalendarDate(leap)).toBe(true);
    for (const no of ['1900-02-29', '2100-02-29', '2026-02-29', '2026-04-31', '0999-01-01', '2026-1-01'])
      expect(CALENDAR_DATE_PATTERN.test(no), no).toBe(false);
  });

  it('takes a rate from 0 to 1 with at most 4 decimals', () => {
    const byValue = (text: string) => /^\d+(\.\d{1,4})?$/.test(text) && parseRate(text) <= 10_000;
    fc.assert(
      fc.property(fc.stringMatching(/^\d{1,3}(\.\d{0,5})?$/), (text) => {
        expect(RATE_TEXT_PATTERN.test(text), text).toBe(byValue(text));
      }),
      { numRuns: 5000 },
    );
    for (const yes of ['0', '1', '0.0650', '1.0000', '00.5'])
      expect(RATE_TEXT_PATTERN.test(yes), yes).toBe(true);
    for (const no of ['1.0001', '2', '0.12345', '.5', '-0.1'])
      expect(RATE_TEXT_PATTERN.test(no), no).toBe(false);
  });

  it('takes an amount with 2 decimals up to its maximum', () => {
    for (const max of [PRODUCT_PRICE_MAX_CENTS, SELLER_DELIVERY_FEE_MAX_CENTS]) {
      const pattern = amountPatternUpTo(max);
      fc.assert(
        fc.property(fc.integer({ min: 0, max: max * 3 }), (cents) => {
          const text = (cents / 100).toFixed(2);
          expect(pattern.test(text), text).toBe(parseCents(text) <= max);
        }),
      );
    }
    expect(amountPatternUpTo(PRODUCT_PRICE_MAX_CENTS).test('100000.01')).toBe(false);
    expect(amountPatternUpTo(PRODUCT_PRICE_MAX_CENTS).test('12.5')).toBe(false);
  });

  it('takes a card expiry exactly when it can be read', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^ ?\d{1,3} ?\/ ?\d{1,5} ?$/), (text) => {
        expect(CARD_EXPIRY_PATTERN.test(text), text).toBe(parseExpiry(text) !== null);
      }),
      { numRuns: 3000 },
    );
  });
});
