import { afterEach, describe, expect, it } from 'vitest';
import {
  clockLabel,
  DEFAULT_MARKETPLACE_TIME_ZONE,
  formatDate,
  formatDateTime,
  formatMonthYear,
  formatPickupTime,
  isKnownTimeZone,
  isoDateIn,
  slotLabelOf,
  zoneAbbreviation,
} from './marketplace-time';

const CHICAGO = DEFAULT_MARKETPLACE_TIME_ZONE;
// 2026-11-23 is a Monday; 16:00Z is 10:00 AM in Chicago (CST, UTC-6), 1:00 AM the next day in Tokyo.
const MONDAY_TEN_AM_CHICAGO = '2026-11-23T16:00:00.000Z';

describe('marketplace times (docs/rules/running.md, Dates and times)', () => {
  const originalZone = process.env.TZ;
  afterEach(() => {
    if (originalZone === undefined) delete process.env.TZ;
    else process.env.TZ = originalZone;
  });

  it.each([
    ['UTC', 0],
    ['Asia/Tokyo', -540],
    ['America/Chicago', 360],
    ['Pacific/Kiritimati', -840],
  ])(
    'shows a pickup time in the marketplace zone whatever the process zone (%s)',
    (processZone, offsetMinutes) => {
      process.env.TZ = processZone;
      // The process really is in that zone now (Node reads TZ again when it is set).
      expect(new Date(MONDAY_TEN_AM_CHICAGO).getTimezoneOffset()).toBe(offsetMinutes);
      expect(formatPickupTime(MONDAY_TEN_AM_CHICAGO, CHICAGO)).toBe('Mon, Nov 23 · 10:00 AM CST');
      expect(formatDateTime(MONDAY_TEN_AM_CHICAGO, CHICAGO)).toBe('Nov 23, 2026 · 10:00 AM CST');
      expect(formatDate(MONDAY_TEN_AM_CHICAGO, CHICAGO)).toBe('Nov 23, 2026');
      expect(isoDateIn(MONDAY_TEN_AM_CHICAGO, CHICAGO)).toBe('2026-11-23');
    },
  );

  it('matches the label of the slot it was chosen from, plus the zone', () => {
    const slot = slotLabelOf({ year: 2026, month: 11, day: 23 }, 10 * 60);
    expect(slot).toBe('Mon, Nov 23 · 10:00 AM');
    expect(formatPickupTime(MONDAY_TEN_AM_CHICAGO, CHICAGO)).toBe(`${slot} CST`);
  });

  it('names summer time and the date of the zone, not of UTC', () => {
    // 03:30Z on Jul 4 is still 10:30 PM on Jul 3 in Chicago (CDT, UTC-5).
    expect(formatDateTime('2026-07-04T03:30:00Z', CHICAGO)).toBe('Jul 3, 2026 · 10:30 PM CDT');
    expect(isoDateIn('2026-07-04T03:30:00Z', CHICAGO)).toBe('2026-07-03');
    expect(zoneAbbreviation(Date.parse('2026-07-04T03:30:00Z'), CHICAGO)).toBe('CDT');
  });

  it('follows another marketplace zone when one is configured', () => {
    expect(formatPickupTime(MONDAY_TEN_AM_CHICAGO, 'Asia/Tokyo')).toBe('Tue, Nov 24 · 1:00 AM GMT+9');
    expect(formatPickupTime(MONDAY_TEN_AM_CHICAGO, 'America/New_York')).toBe('Mon, Nov 23 · 11:00 AM EST');
  });

  it('writes noon and midnight on a 12-hour clock, with a plain space before AM and PM', () => {
    expect(clockLabel(0)).toBe('12:00 AM');
    expect(clockLabel(12 * 60)).toBe('12:00 PM');
    expect(clockLabel(23 * 60 + 30)).toBe('11:30 PM');
    expect(formatPickupTime('2026-11-23T06:00:00Z', CHICAGO)).toBe('Mon, Nov 23 · 12:00 AM CST');
    expect(formatPickupTime(MONDAY_TEN_AM_CHICAGO, CHICAGO)).not.toMatch(/\u202f/);
  });

  it('answers null for no time or a time that is not one', () => {
    for (const nothing of [null, undefined, '', 'not a date']) {
      expect(formatPickupTime(nothing, CHICAGO)).toBeNull();
      expect(formatDateTime(nothing, CHICAGO)).toBeNull();
    }
  });

  it('writes a month and year for a member-since line', () => {
    expect(formatMonthYear('2026-12-01T03:00:00Z', CHICAGO)).toBe('November 2026');
  });

  it('knows a zone from a name that is none', () => {
    expect(isKnownTimeZone('America/Chicago')).toBe(true);
    expect(isKnownTimeZone('Mars/Olympus_Mons')).toBe(false);
  });
});
