import type { Db } from '../../db/client';
import { notFound } from '../../platform/errors';
import { isAdmin } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import {
  EARNINGS_CHART_WEEKS,
  type Seller30DaySales,
  type SellerEarnings,
  type WeeklyEarnings,
} from '../../../domain/earnings';
import { LOYALTY_WINDOW_DAYS } from '../../../domain/fees';
import { formatCents, parseCents } from '../../../domain/money';
import { trendWindowsEndingAt, weekOverWeekPercent } from '../../../domain/trends';
import {
  listWeeklySellerEarnings,
  sumFinishedSellerEarnings,
  sumSellerEarningsWeeks,
  sumSellerSalesBetween,
} from './earnings.queries';

const DAY_MS = 24 * 60 * 60 * 1000;

const money = (text: string) => formatCents(parseCents(text));

/**
 * GET /api/earnings/seller (seller or admin; docs/rules/selling.md, Seller earnings): the caller's
 * total earnings and the number of orders behind them, from finished orders only (delivered or
 * picked up), summing the sellerEarnings each order stored when it was placed; and the change of
 * both over the last 7 days against the 7 before, by when each order finished.
 */
export async function getSellerEarnings(db: Db, actor: Actor, now: Date): Promise<SellerEarnings> {
  const { total, count } = await sumFinishedSellerEarnings(db, actor.id);
  const weeks = await sumSellerEarningsWeeks(db, actor.id, trendWindowsEndingAt(now));
  return {
    totalEarnings: money(total),
    orderCount: count,
    earningsTrend: weekOverWeekPercent(
      parseCents(weeks.earnings.thisWeek),
      parseCents(weeks.earnings.lastWeek),
    ),
    orderCountTrend: weekOverWeekPercent(weeks.count.thisWeek, weeks.count.lastWeek),
  };
}

/** A seller's 30-day sales are theirs and admins' to read; anyone else is told nothing (404). */
export function canReadSellerSales(actor: Actor, sellerId: string): boolean {
  return actor.id === sellerId || isAdmin(actor);
}

/**
 * GET /api/earnings/seller-30day/{userId} (own id or admin, else 404): the product subtotal of the
 * seller's orders that are not cancelled, placed in the last 30 days; the amount the next order's
 * loyalty discount comes from (docs/rules/money.md, Fees and commission).
 */
export async function getSeller30DaySales(
  db: Db,
  actor: Actor,
  sellerId: string,
  now: Date,
): Promise<Seller30DaySales> {
  if (!canReadSellerSales(actor, sellerId)) throw notFound('Seller not found');
  const from = new Date(now.getTime() - LOYALTY_WINDOW_DAYS * DAY_MS);
  return { total: money(await sumSellerSalesBetween(db, sellerId, from, now)) };
}

/**
 * GET /api/earnings/seller/weekly (seller or admin): the caller's earnings in each of the last 12
 * weeks (Monday to Sunday in the marketplace time zone), oldest first, counted in the week the order
 * finished.
 */
export async function getWeeklySellerEarnings(
  db: Db,
  actor: Actor,
  params: { now: Date; timeZone: string },
): Promise<WeeklyEarnings> {
  const rows = await listWeeklySellerEarnings(db, {
    sellerId: actor.id,
    now: params.now,
    timeZone: params.timeZone,
    weeks: EARNINGS_CHART_WEEKS,
  });
  return rows.map((row) => ({ ...row, earnings: money(row.earnings) }));
}
