import type { Db } from '../../db/client';
import type { Actor } from '../../platform/sessions';
import { formatCents, parseCents } from '../../../domain/money';
import {
  DRIVER_EARNINGS_WEEKS,
  type DriverEarnings,
  type DriverTrip,
  type DriverTripsQuery,
} from '../../../domain/deliveries';
import { listDriverTrips, listWeeklyDriverEarnings, sumDriverEarnings } from './deliveries.queries';

const money = (text: string) => formatCents(parseCents(text));

/**
 * GET /api/earnings/driver (docs/rules/deliveries.md, Deliveries): the caller's driver earnings of
 * delivered orders (what a delivery pays after the platform's commission, less refunds' reversals):
 * in all and how many, today, this week, and each of the last 8 weeks, in the marketplace time zone.
 */
export async function getDriverEarnings(
  db: Db,
  actor: Actor,
  clock: { now: Date; timeZone: string },
): Promise<DriverEarnings> {
  const params = { driverId: actor.id, ...clock };
  const [sums, weekly] = await Promise.all([
    sumDriverEarnings(db, params),
    listWeeklyDriverEarnings(db, { ...params, weeks: DRIVER_EARNINGS_WEEKS }),
  ]);
  return {
    totalEarnings: money(sums.total),
    orderCount: sums.count,
    today: money(sums.today),
    thisWeek: money(sums.thisWeek),
    weekly: weekly.map((week) => ({ ...week, earnings: money(week.earnings) })),
  };
}

/** Distances are answered with one decimal. */
const oneDecimal = (miles: number | null) => (miles === null ? null : Math.round(Number(miles) * 10) / 10);

/** GET /api/earnings/driver/trips: each delivery of the caller, latest first, with its distance and earnings. */
export async function getDriverTrips(db: Db, actor: Actor, query: DriverTripsQuery): Promise<DriverTrip[]> {
  const rows = await listDriverTrips(db, { driverId: actor.id, limit: query.limit, offset: query.offset });
  return rows.map((row) => ({
    orderId: row.orderId,
    orderNumber: row.orderNumber,
    deliveredAt: new Date(row.deliveredAt).toISOString(),
    pickupCity: row.pickupCity,
    deliveryCity: row.deliveryCity,
    distance: oneDecimal(row.distance),
    earnings: money(row.earnings),
  }));
}
