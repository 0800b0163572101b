import { z } from 'zod';

/**
 * The statistic cards' trend, "+N% from last week" (docs/rules/screens-work.md, Dashboards): the last 7
 * days against the 7 days before them, ending at the server's clock.
 */
export const TREND_WINDOW_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A whole percent, or null when the week before had nothing to compare with. */
export const trendSchema = z.number().int().nullable();
export type Trend = z.infer<typeof trendSchema>;

/** The two weeks a trend compares: [lastWeekFrom, thisWeekFrom) and [thisWeekFrom, to). */
export interface TrendWindows {
  lastWeekFrom: Date;
  thisWeekFrom: Date;
  to: Date;
}

export function trendWindowsEndingAt(now: Date): TrendWindows {
  const span = TREND_WINDOW_DAYS * DAY_MS;
  return {
    lastWeekFrom: new Date(now.getTime() - 2 * span),
    thisWeekFrom: new Date(now.getTime() - span),
    to: now,
  };
}

/**
 * The change from last week to this week in whole percent, rounded half away from zero: 10 → 12 is
 * +20, 10 → 5 is −50. Nothing last week (or less) gives no percent at all (null), since a change from
 * nothing is no percentage a person can read.
 */
export function weekOverWeekPercent(thisWeek: number, lastWeek: number): Trend {
  if (!(lastWeek > 0)) return null;
  const change = ((thisWeek - lastWeek) / lastWeek) * 100;
  const rounded = Math.sign(change) * Math.round(Math.abs(change));
  // -0 would read as "0%" anyway; keep it a plain 0.
  return rounded === 0 ? 0 : rounded;
}
