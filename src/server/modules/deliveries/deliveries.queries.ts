import { and, asc, desc, eq, isNotNull, not, sql, type SQL } from 'drizzle-orm';
import { alias, type SubqueryWithSelection } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import {
  addresses,
  driverDeclines,
  offerPlaces,
  orderItems,
  orderStatusEvents,
  orders,
  products,
} from '../../db/schema';
import { distanceRingArrays, distanceRingsPlaceholders, haversineMilesSql, pointOf } from '../../db/sql-geo';
import { builtOnce } from '../../db/built-once';
import { offeredSql } from '../../db/sql-offers';
import type { AvailableOrderItem } from '../../../domain/deliveries';
import type { LatLng } from '../../../domain/geo';

const pickupAddress = alias(addresses, 'pickup_address');
const deliveryAddress = alias(addresses, 'delivery_address');

/** The coordinates of a user's primary address, or null when it has none. */
export async function findPrimaryPoint(db: Db, userId: string): Promise<LatLng | null> {
  const [row] = await primaryPoint(db).execute({ userId });
  if (!row || row.latitude === null || row.longitude === null) return null;
  return { latitude: Number(row.latitude), longitude: Number(row.longitude) };
}

/** Built once: every driver's list of offers reads it (docs/decisions/0028-checkout-throughput.md, Statements built once). */
const primaryPoint = builtOnce((db) =>
  db
    .select({ latitude: addresses.latitude, longitude: addresses.longitude })
    .from(addresses)
    .where(
      and(
        eq(addresses.userId, sql`${sql.placeholder('userId')}::uuid`),
        eq(addresses.isPrimary, true),
        isNotNull(addresses.latitude),
        isNotNull(addresses.longitude),
      ),
    )
    .limit(1)
    .prepare(''),
);

export interface AvailableOrdersFilter {
  driverId: string;
  hasTrailer: boolean;
  /** The driver's primary address; null when it has no coordinates (no pickup distance then). */
  origin: LatLng | null;
  /** Miles from the origin to the pickup; undefined means any distance. */
  maxDistance: number | undefined;
  limit: number;
  offset: number;
}

/** A page of offers: which orders, in which order, with their pickup distance. */
type OfferPage = SubqueryWithSelection<
  { id: SQL.Aliased<string>; createdAt: SQL.Aliased<Date>; pickupDistance: SQL.Aliased<number | null> },
  'page'
>;

/** The offers this driver has not declined (docs/rules/deliveries.md, Deliveries, Offered orders). */
function notDeclinedOffers(db: Db, filter: Pick<AvailableOrdersFilter, 'driverId' | 'hasTrailer'>) {
  const declined = db
    .select({ one: sql`1` })
    .from(driverDeclines)
    .where(and(eq(driverDeclines.orderId, orders.id), eq(driverDeclines.driverId, filter.driverId)));
  return and(offeredSql(filter.hasTrailer), not(sql`exists ${declined}`));
}

/**
 * GET /api/orders/available (docs/rules/deliveries.md, Deliveries): the orders offered to this driver
 * that they have not declined, with the pickup distance (driver's primary address to the pickup)
 * and the delivery distance (pickup to the delivery address), nearest pickup first, then the order
 * that has waited longest; orders whose pickup has no place come after every one that has. Without
 * an origin no order has a pickup distance, so a distance limit leaves none. With one, the offers
 * with a place are read ring by ring from the driver's place, so the first page reads the pickups
 * near enough to fill it, not every offer (docs/decisions/0030-ten-times-the-data.md, A driver's
 * offers in rings, and Offers by their own place); those without a place follow, oldest first.
 */
export async function listAvailableOrders(db: Db, filter: AvailableOrdersFilter) {
  const offers = notDeclinedOffers(db, filter);
  if (filter.origin === null) {
    if (filter.maxDistance !== undefined) return [];
    return offerCards(db, newestOffersPage(db, offers, { limit: filter.limit, offset: filter.offset }));
  }
  const near = await nearestOfferCards(db).execute({
    originLatitude: filter.origin.latitude,
    originLongitude: filter.origin.longitude,
    ...distanceRingArrays(filter.origin, filter.maxDistance),
    driverId: filter.driverId,
    hasTrailer: filter.hasTrailer,
    limit: filter.limit,
    offset: filter.offset,
  });
  if (near.length === filter.limit || filter.maxDistance !== undefined) return near;
  // The page reaches past the offers with a place: how many there are, then those without one.
  const placed = near.length > 0 ? filter.offset + near.length : await countPlacedOffers(db, offers);
  const unplaced = await offerCards(
    db,
    newestOffersPage(db, and(offers, not(sql`exists ${placedPickup(db)}`)), {
      limit: filter.limit - near.length,
      offset: Math.max(0, filter.offset - placed),
    }),
  );
  return [...near, ...unplaced];
}

/** The offer's kept pickup place: it has one while the offer's pickup address has a place. */
function placedPickup(db: Db) {
  return db
    .select({ one: sql`1` })
    .from(offerPlaces)
    .where(eq(offerPlaces.orderId, orders.id));
}

async function countPlacedOffers(db: Db, offers: SQL | undefined): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(orders)
    .where(and(offers, sql`exists ${placedPickup(db)}`));
  return row?.n ?? 0;
}

/** Offers oldest first, with no pickup distance (by orders_available_idx). */
function newestOffersPage(
  db: Db,
  offers: SQL | undefined,
  window: { limit: number; offset: number },
): OfferPage {
  return db
    .select({
      id: sql<string>`${orders.id}`.as('offer_id'),
      createdAt: sql<Date>`${orders.createdAt}`.as('offer_created_at'),
      pickupDistance: sql<number | null>`null::float8`.as('pickup_distance'),
    })
    .from(orders)
    .where(offers)
    .orderBy(asc(orders.createdAt), asc(orders.id))
    .limit(window.limit)
    .offset(window.offset)
    .as('page');
}

/**
 * Offers whose pickup has a place, nearest first, then oldest, then id, from the offers' kept places
 * (offer_places, docs/decisions/0030-ten-times-the-data.md, Offers by their own place): ring by ring,
 * the offers placed in its box (offer_places_location_idx, read from the index alone), less those
 * this driver declined and, without a trailer, those needing one. The rings partition the places by
 * distance, so ordering by ring, then distance, is ordering by distance, and the limit stops at the
 * ring that fills the page. Its values are placeholders: the page with its cards is built once
 * (`nearestOfferCards`).
 */
function nearestOffersPage(db: Db): OfferPage {
  const distance = haversineMilesSql(
    {
      latitude: sql`${sql.placeholder('originLatitude')}::float8`,
      longitude: sql`${sql.placeholder('originLongitude')}::float8`,
    },
    pointOf(offerPlaces),
  );
  const declined = db
    .select({ one: sql`1` })
    .from(driverDeclines)
    .where(
      and(
        eq(driverDeclines.orderId, offerPlaces.orderId),
        eq(driverDeclines.driverId, sql`${sql.placeholder('driverId')}::uuid`),
      ),
    );
  const offersThere = db
    .select({
      id: offerPlaces.orderId,
      createdAt: offerPlaces.createdAt,
      distance: sql<number>`${distance}`.as('distance'),
    })
    .from(offerPlaces)
    .where(
      and(
        sql`${offerPlaces.latitude} between ring.lat_min and ring.lat_max`,
        sql`${offerPlaces.longitude} between ring.lng_min and ring.lng_max`,
        sql`${distance} <= ring.outer_miles`,
        sql`${distance} > ring.inner_miles`,
        sql`(${sql.placeholder('hasTrailer')}::boolean or not ${offerPlaces.requiresTrailer})`,
        not(sql`exists ${declined}`),
      ),
    )
    .as('offers_there');
  return db
    .select({
      id: sql<string>`${offersThere.id}`.as('offer_id'),
      createdAt: sql<Date>`${offersThere.createdAt}`.as('offer_created_at'),
      pickupDistance: sql<number | null>`${offersThere.distance}`.as('pickup_distance'),
    })
    .from(distanceRingsPlaceholders())
    .crossJoinLateral(offersThere)
    .orderBy(sql`ring.k`, asc(offersThere.distance), asc(offersThere.createdAt), asc(offersThere.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .as('page');
}

/**
 * The nearest offers' page with its cards, built once (docs/decisions/0028-checkout-throughput.md,
 * Statements built once): every driver's list reads it.
 */
const nearestOfferCards = builtOnce((db) => offerCards(db, nearestOffersPage(db)).prepare(''));

/**
 * The cards of a page of offers: the delivery area, the items' names and counts, the delivery
 * distance, for the page's rows only (selected with the sort, PostgreSQL would compute every item
 * list of every offer before the limit).
 */
function offerCards(db: Db, page: OfferPage) {
  const deliveryDistance = haversineMilesSql(pointOf(pickupAddress), pointOf(deliveryAddress));
  return db
    .select({
      // What a card shows, not every column: 50 rows of some 60 columns were parsed and mapped.
      order: {
        id: orders.id,
        orderNumber: orders.orderNumber,
        requiresTrailer: orders.requiresTrailer,
        deliveryNotes: orders.deliveryNotes,
        driverEarnings: orders.driverEarnings,
        createdAt: orders.createdAt,
      },
      pickup: {
        addressLine1: pickupAddress.addressLine1,
        addressLine2: pickupAddress.addressLine2,
        city: pickupAddress.city,
        state: pickupAddress.state,
        zipCode: pickupAddress.zipCode,
        latitude: pickupAddress.latitude,
        longitude: pickupAddress.longitude,
      },
      deliveryCity: deliveryAddress.city,
      deliveryState: deliveryAddress.state,
      deliveryZipCode: deliveryAddress.zipCode,
      pickupDistance: page.pickupDistance,
      deliveryDistance,
      itemCount: sql<number>`(select coalesce(sum(${orderItems.quantity}), 0)::int from ${orderItems} where ${orderItems.orderId} = ${orders.id})`,
      // Names and counts only, never a price, most units first: in the page's one statement, not
      // one per order.
      items: sql<
        AvailableOrderItem[]
      >`(select coalesce(json_agg(json_build_object('name', ${products.name}, 'quantity', ${orderItems.quantity}) order by ${orderItems.quantity} desc, ${products.name}, ${orderItems.id}), '[]'::json) from ${orderItems} join ${products} on ${products.id} = ${orderItems.productId} where ${orderItems.orderId} = ${orders.id})`,
    })
    .from(page)
    .innerJoin(orders, eq(orders.id, page.id))
    .leftJoin(pickupAddress, eq(pickupAddress.id, orders.pickupAddressId))
    .leftJoin(deliveryAddress, eq(deliveryAddress.id, orders.deliveryAddressId))
    .orderBy(sql`${page.pickupDistance} asc nulls last`, asc(page.createdAt), asc(page.id));
}

/** A decline hides the order from this driver only; declining twice is one decline. */
export async function recordDecline(db: Db, driverId: string, orderId: string, now: Date): Promise<void> {
  await db.insert(driverDeclines).values({ driverId, orderId, createdAt: now }).onConflictDoNothing();
}

/** Undoing a decline: the order is offered to this driver again while it is offered at all. */
export async function deleteDecline(db: Db, driverId: string, orderId: string): Promise<void> {
  await db
    .delete(driverDeclines)
    .where(and(eq(driverDeclines.driverId, driverId), eq(driverDeclines.orderId, orderId)));
}

/** The driver's share of their delivered orders net of refunds (docs/decisions/0018-money-against-stripe.md), as numeric text, and how many there are. */
/** A delivery's driver earnings less what refunds reversed of its payout (docs/rules/deliveries.md, Deliveries). */
const netDriverEarnings = sql<string>`(${orders.driverEarnings} - (select coalesce(sum(pr.amount), 0) from payout_reversals pr join payouts p on p.id = pr.payout_id where p.order_id = "orders"."id" and p.kind = 'driver' and pr.status in ('pending','reversed','unrecovered','cancelled')))`;

/** When the delivery was made: its recorded time, else its last step to delivered, else its last change. */
const deliveredAtSql = sql<Date>`coalesce(${orders.deliveredAt},
    (select max(${orderStatusEvents.createdAt}) from ${orderStatusEvents}
      where ${orderStatusEvents.orderId} = ${orders.id} and ${orderStatusEvents.toStatus} = 'delivered'),
    ${orders.updatedAt})`;

const deliveredBy = (driverId: string) => and(eq(orders.driverId, driverId), eq(orders.status, 'delivered'));

/**
 * The driver's net earnings of delivered orders: in all, today and this week (Monday to Sunday)
 * in `timeZone`, counted when each was delivered; one statement.
 */
export async function sumDriverEarnings(
  db: Db,
  params: { driverId: string; now: Date; timeZone: string },
): Promise<{ total: string; count: number; today: string; thisWeek: string }> {
  const local = sql`(${deliveredAtSql} at time zone ${params.timeZone})`;
  const nowLocal = sql`(${params.now.toISOString()}::timestamptz at time zone ${params.timeZone})`;
  const [row] = await db
    .select({
      total: sql<string>`coalesce(sum(${netDriverEarnings}), 0)::text`,
      count: sql<number>`count(*)::int`,
      today: sql<string>`coalesce(sum(${netDriverEarnings}) filter (where ${local} >= date_trunc('day', ${nowLocal}) and ${local} <= ${nowLocal}), 0)::text`,
      thisWeek: sql<string>`coalesce(sum(${netDriverEarnings}) filter (where ${local} >= date_trunc('week', ${nowLocal}) and ${local} <= ${nowLocal}), 0)::text`,
    })
    .from(orders)
    .where(deliveredBy(params.driverId));
  return {
    total: row?.total ?? '0',
    count: row?.count ?? 0,
    today: row?.today ?? '0',
    thisWeek: row?.thisWeek ?? '0',
  };
}

/**
 * The driver's net earnings per week for the `weeks` weeks up to the one holding `now`, oldest
 * first, empty weeks included; a week runs Monday to Sunday in `timeZone`. Summed in the database.
 */
export async function listWeeklyDriverEarnings(
  db: Db,
  params: { driverId: string; now: Date; timeZone: string; weeks: number },
): Promise<{ weekStart: string; earnings: string; trips: number }[]> {
  const { driverId, now, timeZone, weeks } = params;
  const thisWeek = sql`date_trunc('week', ${now.toISOString()}::timestamptz at time zone ${timeZone})`;
  const delivered = db
    .select({
      week: sql<string>`date_trunc('week', ${deliveredAtSql} at time zone ${timeZone})`.as('delivered_week'),
      earnings: sql<string>`${netDriverEarnings}`.as('delivered_earnings'),
    })
    .from(orders)
    .where(deliveredBy(driverId))
    .as('delivered');
  const week = sql`w.week_start`;
  return db
    .select({
      weekStart: sql<string>`to_char(${week}, 'YYYY-MM-DD')`,
      earnings: sql<string>`coalesce(sum(${delivered.earnings}), 0)::text`,
      trips: sql<number>`count(${delivered.earnings})::int`,
    })
    .from(
      sql`generate_series(${thisWeek} - make_interval(weeks => ${weeks - 1}::int), ${thisWeek}, interval '1 week') as w(week_start)`,
    )
    .leftJoin(delivered, sql`${delivered.week} = ${week}`)
    .groupBy(week)
    .orderBy(week);
}

/**
 * The driver's delivered orders, latest delivery first: where from and to (cities), the trip's
 * distance (pickup to delivery address, in miles, null without coordinates) and its net earnings.
 */
export async function listDriverTrips(db: Db, params: { driverId: string; limit: number; offset: number }) {
  return db
    .select({
      orderId: orders.id,
      orderNumber: orders.orderNumber,
      deliveredAt: deliveredAtSql,
      pickupCity: pickupAddress.city,
      deliveryCity: deliveryAddress.city,
      distance: haversineMilesSql(pointOf(pickupAddress), pointOf(deliveryAddress)),
      earnings: sql<string>`${netDriverEarnings}::text`,
    })
    .from(orders)
    .leftJoin(pickupAddress, eq(pickupAddress.id, orders.pickupAddressId))
    .leftJoin(deliveryAddress, eq(deliveryAddress.id, orders.deliveryAddressId))
    .where(deliveredBy(params.driverId))
    .orderBy(desc(deliveredAtSql), desc(orders.id))
    .limit(params.limit)
    .offset(params.offset);
}
