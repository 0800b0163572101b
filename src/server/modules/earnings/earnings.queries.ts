import { and, eq, gte, inArray, lte, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { orders, orderStatusEvents } from '../../db/schema';
import type { TrendWindows } from '../../../domain/trends';
import { FULFILLED_STATUSES } from '../../../domain/order-status';

/**
 * The seller's stored earnings of an order less what refunds took back from them (their proportional
 * share; docs/decisions/0018-money-against-stripe.md, Refunds).
 */
const netSellerEarnings = sql`(${orders.sellerEarnings} - (select coalesce(sum(pr.amount), 0) from payout_reversals pr join payouts p on p.id = pr.payout_id where p.order_id = "orders"."id" and p.kind = 'seller' and pr.status in ('pending','reversed','unrecovered','cancelled')))`;

/**
 * When an order finished: its last step to delivered or completed (its last change when no event
 * says so).
 */
const finishedAt = sql`coalesce(
    (select max(${orderStatusEvents.createdAt}) from ${orderStatusEvents}
      where ${orderStatusEvents.orderId} = ${orders.id}
        and ${orderStatusEvents.toStatus} in ('delivered', 'completed')),
    ${orders.updatedAt})`;

/**
 * The seller's earnings (net of refunds, numeric text) and number of orders that finished in each of
 * the two weeks a trend compares (docs/rules/selling.md, Seller earnings).
 */
export async function sumSellerEarningsWeeks(db: Db, sellerId: string, windows: TrendWindows) {
  const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;
  const thisWeek = sql`${finishedAt} >= ${at(windows.thisWeekFrom)} and ${finishedAt} < ${at(windows.to)}`;
  const lastWeek = sql`${finishedAt} >= ${at(windows.lastWeekFrom)} and ${finishedAt} < ${at(windows.thisWeekFrom)}`;
  const [row] = await db
    .select({
      earningsThisWeek: sql<string>`coalesce(sum(${netSellerEarnings}) filter (where ${thisWeek}), 0)::text`,
      earningsLastWeek: sql<string>`coalesce(sum(${netSellerEarnings}) filter (where ${lastWeek}), 0)::text`,
      countThisWeek: sql<number>`count(*) filter (where ${thisWeek})::int`,
      countLastWeek: sql<number>`count(*) filter (where ${lastWeek})::int`,
    })
    .from(orders)
    .where(and(eq(orders.sellerId, sellerId), inArray(orders.status, [...FULFILLED_STATUSES])));
  return {
    earnings: { thisWeek: row?.earningsThisWeek ?? '0', lastWeek: row?.earningsLastWeek ?? '0' },
    count: { thisWeek: row?.countThisWeek ?? 0, lastWeek: row?.countLastWeek ?? 0 },
  };
}

/** The sum of the seller's finished orders' earnings net of refunds, as numeric text, and their count. */
export async function sumFinishedSellerEarnings(
  db: Db,
  sellerId: string,
): Promise<{ total: string; count: number }> {
  const [row] = await db
    .select({
      total: sql<string>`coalesce(sum(${netSellerEarnings}), 0)::text`,
      count: sql<number>`count(*)::int`,
    })
    .from(orders)
    .where(and(eq(orders.sellerId, sellerId), inArray(orders.status, [...FULFILLED_STATUSES])));
  return { total: row?.total ?? '0', count: row?.count ?? 0 };
}

/**
 * The seller's product subtotal of orders that are not cancelled, placed between from and to, as numeric text
 * (both ends included): the same sum the loyalty discount of a new order uses (docs/rules/money.md, Fees and
 * commission).
 */
export async function sumSellerSalesBetween(db: Db, sellerId: string, from: Date, to: Date): Promise<string> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${orders.productSubtotal}), 0)::text` })
    .from(orders)
    .where(
      and(
        eq(orders.sellerId, sellerId),
        ne(orders.status, 'cancelled'),
        gte(orders.createdAt, from),
        lte(orders.createdAt, to),
      ),
    );
  return row?.total ?? '0';
}

export interface WeekRow {
  weekStart: string;
  earnings: string;
  orderCount: number;
}

/**
 * The seller's earnings per week for the `weeks` weeks up to the one holding `now`, oldest first,
 * weeks without a finished order included (as 0). A week runs Monday to Sunday in `timeZone`; an
 * order counts in the week its last step to delivered or completed was recorded (its last change
 * when no event says so). Everything is summed in the database.
 */
export async function listWeeklySellerEarnings(
  db: Db,
  params: { sellerId: string; now: Date; timeZone: string; weeks: number },
): Promise<WeekRow[]> {
  const { sellerId, now, timeZone, weeks } = params;
  const thisWeek = sql`date_trunc('week', ${now.toISOString()}::timestamptz at time zone ${timeZone})`;
  const finished = db
    .select({
      week: sql<string>`date_trunc('week', ${finishedAt} at time zone ${timeZone})`.as('finished_week'),
      earnings: sql<string>`${netSellerEarnings}`.as('finished_earnings'),
    })
    .from(orders)
    .where(and(eq(orders.sellerId, sellerId), inArray(orders.status, [...FULFILLED_STATUSES])))
    .as('finished');
  const week = sql`w.week_start`;
  return db
    .select({
      weekStart: sql<string>`to_char(${week}, 'YYYY-MM-DD')`,
      earnings: sql<string>`coalesce(sum(${finished.earnings}), 0)::text`,
      orderCount: sql<number>`count(${finished.earnings})::int`,
    })
    .from(
      sql`generate_series(${thisWeek} - make_interval(weeks => ${weeks - 1}::int), ${thisWeek}, interval '1 week') as w(week_start)`,
    )
    .leftJoin(finished, sql`${finished.week} = ${week}`)
    .groupBy(week)
    .orderBy(week);
}
