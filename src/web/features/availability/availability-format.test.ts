import { describe, expect, it } from 'vitest';
import {
  availabilityTexts,
  formatDate,
  formatDateRange,
  formatTime,
  todayLocalDate,
} from './availability-format';

describe('availabilityTexts (docs/rules/screens-buyer.md, Account pages)', () => {
  it('speaks of pickups to sellers', () => {
    expect(availabilityTexts('seller').subtitle).toBe(
      'Set your weekly hours and blackout dates for customer pickups',
    );
  });

  it.each(['buyer', 'driver', 'admin'] as const)('speaks of deliveries to a %s', (role) => {
    expect(availabilityTexts(role).subtitle).toBe('Set your weekly hours and blackout dates for deliveries');
  });
});

describe('formatting', () => {
  it('shows times on a 12-hour clock', () => {
    expect(formatTime('09:00')).toBe('9:00 AM');
    expect(formatTime('00:30')).toBe('12:30 AM');
    expect(formatTime('12:00')).toBe('12:00 PM');
    expect(formatTime('17:05')).toBe('5:05 PM');
    expect(formatTime('nonsense')).toBe('nonsense');
  });

  it('shows calendar dates without shifting them by a time zone', () => {
    expect(formatDate('2026-11-23')).toBe('Mon, Nov 23, 2026');
    expect(formatDateRange('2026-12-24', '2026-12-24')).toBe('Thu, Dec 24, 2026');
    expect(formatDateRange('2026-12-24', '2026-12-26')).toBe('Thu, Dec 24, 2026 – Sat, Dec 26, 2026');
  });

  it("gives today's local date as YYYY-MM-DD", () => {
    // 04:30 UTC on Jan 6 is still 10:30 PM on Jan 5 in Chicago, the marketplace's calendar.
    expect(todayLocalDate(new Date('2026-01-06T04:30:00Z'))).toBe('2026-01-05');
  });
});
