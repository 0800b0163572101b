import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { trendWindowsEndingAt, weekOverWeekPercent } from './trends';

describe('weekOverWeekPercent (docs/rules/screens-work.md, Dashboards)', () => {
  it('is the change from last week in whole percent', () => {
    expect(weekOverWeekPercent(12, 10)).toBe(20);
    expect(weekOverWeekPercent(5, 10)).toBe(-50);
    expect(weekOverWeekPercent(10, 10)).toBe(0);
    expect(weekOverWeekPercent(0, 4)).toBe(-100);
    expect(weekOverWeekPercent(1, 3)).toBe(-67);
    expect(weekOverWeekPercent(2, 3)).toBe(-33);
    expect(weekOverWeekPercent(3, 2)).toBe(50);
  });

  it('gives no percent when last week had nothing', () => {
    expect(weekOverWeekPercent(5, 0)).toBeNull();
    expect(weekOverWeekPercent(0, 0)).toBeNull();
  });

  it('is positive exactly when this week is more', () => {
    fc.assert(
      fc.property(fc.nat(1_000_000), fc.integer({ min: 1, max: 1_000_000 }), (thisWeek, lastWeek) => {
        const trend = weekOverWeekPercent(thisWeek, lastWeek);
        expect(trend).not.toBeNull();
        if (thisWeek < lastWeek) expect(trend).toBeLessThanOrEqual(0);
        if (thisWeek >= lastWeek) expect(trend).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('compares the 7 days before now with the 7 days before those', () => {
    const now = new Date('2026-12-04T12:00:00Z');
    expect(trendWindowsEndingAt(now)).toEqual({
      lastWeekFrom: new Date('2026-11-20T12:00:00Z'),
      thisWeekFrom: new Date('2026-11-27T12:00:00Z'),
      to: now,
    });
  });
});
