import { and, asc, eq, inArray, isNotNull, isNull, not, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { addresses, driverDeclines, orderItems, orders, orderStatusEvents } from '../../db/schema';
import { haversineMilesSql, pointOf, type SqlPoint } from '../../db/sql-geo';
import type { LatLng } from '../../../domain/geo';

export type OrderRow = typeof orders.$inferSelect;

const pickupAddress = alias(addresses, 'pickup_address');
const deliveryAddress = alias(addresses, 'delivery_address');

/** Statuses in which the assigned driver still works on the order: arrival time and photo may change. */
export const ACTIVE_DELIVERY_STATUSES = ['assigned', 'in-transit'] as const;

/**
 * The offer rule in SQL (`isOfferedTo` in src/server/platform/policy.ts): pending, no driver,
 * delivered by a driver, and a trailer order only when the driver has a trailer image. The partial
 * index orders_available_idx (migration 0003) holds exactly the first four conditions.
 */
function offered(hasTrailer: boolean): SQL | undefined {
  return and(
    eq(orders.status, 'pending'),
    isNull(orders.driverId),
    eq(orders.isPickup, false),
    eq(orders.sellerDelivery, false),
    hasTrailer ? undefined : eq(orders.requiresTrailer, false),
  );
}

/** The coordinates of a user's primary address, or null when it has none. */
export async function findPrimaryPoint(db: Db, userId: string): Promise<LatLng | null> {
  const [row] = await db
    .select({ latitude: addresses.latitude, longitude: addresses.longitude })
    .from(addresses)
    .where(
      and(
        eq(addresses.userId, userId),
        eq(addresses.isPrimary, true),
        isNotNull(addresses.latitude),
        isNotNull(addresses.longitude),
      ),
    )
    .limit(1);
  if (!row || row.latitude === null || row.longitude === null) return null;
  return { latitude: Number(row.latitude), longitude: Number(row.longitude) };
}

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

/**
 * GET /api/orders/available (docs/product-rules.md, Deliveries): the orders offered to this driver
 * that they have not declined, with the pickup distance (driver's primary address to the pickup)
 * and the delivery distance (pickup to the delivery address), nearest pickup first, then the order
 * that has waited longest. Filtered, sorted and paged in the database. Without an origin no order
 * has a pickup distance, so a distance limit leaves none.
 */
export async function listAvailableOrders(db: Db, filter: AvailableOrdersFilter) {
  const origin: SqlPoint | null = filter.origin
    ? {
        latitude: sql`${filter.origin.latitude}::float8`,
        longitude: sql`${filter.origin.longitude}::float8`,
      }
    : null;
  const pickupDistance = origin
    ? haversineMilesSql(origin, pointOf(pickupAddress))
    : sql<number | null>`null::float8`;
  const deliveryDistance = haversineMilesSql(pointOf(pickupAddress), pointOf(deliveryAddress));
  const declined = db
    .select({ one: sql`1` })
    .from(driverDeclines)
    .where(and(eq(driverDeclines.orderId, orders.id), eq(driverDeclines.driverId, filter.driverId)));
  return db
    .select({
      order: orders,
      pickup: pickupAddress,
      deliveryCity: deliveryAddress.city,
      deliveryState: deliveryAddress.state,
      deliveryZipCode: deliveryAddress.zipCode,
      pickupDistance,
      deliveryDistance,
      itemCount: sql<number>`(select coalesce(sum(${orderItems.quantity}), 0)::int from ${orderItems} where ${orderItems.orderId} = ${orders.id})`,
    })
    .from(orders)
    .leftJoin(pickupAddress, eq(pickupAddress.id, orders.pickupAddressId))
    .leftJoin(deliveryAddress, eq(deliveryAddress.id, orders.deliveryAddressId))
    .where(
      and(
        offered(filter.hasTrailer),
        not(sql`exists ${declined}`),
        filter.maxDistance === undefined
          ? undefined
          : sql`${pickupDistance} <= ${filter.maxDistance}::float8`,
      ),
    )
    .orderBy(sql`${pickupDistance} asc nulls last`, asc(orders.createdAt), asc(orders.id))
    .limit(filter.limit)
    .offset(filter.offset);
}

/** One order's row, for the decisions of the driver's calls. */
export async function findOrderRow(db: Db, id: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id)).limit(1);
  return row;
}

/**
 * Accepting in one conditional statement (docs/product-rules.md, Deliveries): the row changes only
 * while the order is still offered, so of any number of drivers accepting at once exactly one sees
 * it pending without a driver. The status event is recorded in the same transaction.
 */
export async function assignDriverIfOffered(
  tx: Db,
  change: { orderId: string; driverId: string; hasTrailer: boolean; now: Date },
): Promise<boolean> {
  const rows = await tx
    .update(orders)
    .set({ status: 'assigned', driverId: change.driverId, updatedAt: change.now })
    .where(and(eq(orders.id, change.orderId), offered(change.hasTrailer)))
    .returning({ id: orders.id });
  if (rows.length === 0) return false;
  await tx.insert(orderStatusEvents).values({
    orderId: change.orderId,
    fromStatus: 'pending',
    toStatus: 'assigned',
    actorId: change.driverId,
    createdAt: change.now,
  });
  return true;
}

/** A decline hides the order from this driver only; declining twice is one decline. */
export async function recordDecline(db: Db, driverId: string, orderId: string, now: Date): Promise<void> {
  await db.insert(driverDeclines).values({ driverId, orderId, createdAt: now }).onConflictDoNothing();
}

/** The assigned driver's own order while they still work on it. */
function activeDeliveryOf(orderId: string, driverId: string): SQL | undefined {
  return and(
    eq(orders.id, orderId),
    eq(orders.driverId, driverId),
    inArray(orders.status, [...ACTIVE_DELIVERY_STATUSES]),
  );
}

/** Conditional on the driver and the status: a change that lost a race changes nothing. */
export async function setEstimatedDeliveryTime(
  db: Db,
  change: { orderId: string; driverId: string; at: Date; now: Date },
): Promise<boolean> {
  const rows = await db
    .update(orders)
    .set({ estimatedDeliveryTime: change.at, updatedAt: change.now })
    .where(activeDeliveryOf(change.orderId, change.driverId))
    .returning({ id: orders.id });
  return rows.length === 1;
}

export async function setDeliveryPhotoUrl(
  tx: Db,
  change: { orderId: string; driverId: string; objectPath: string; now: Date },
): Promise<boolean> {
  const rows = await tx
    .update(orders)
    .set({ deliveryPhotoUrl: change.objectPath, updatedAt: change.now })
    .where(activeDeliveryOf(change.orderId, change.driverId))
    .returning({ id: orders.id });
  return rows.length === 1;
}

/** The driver's share of their delivered orders, as numeric text, and how many there are. */
export async function sumDriverEarnings(db: Db, driverId: string): Promise<{ total: string; count: number }> {
  const [row] = await db
    .select({
      total: sql<string>`coalesce(sum(${orders.driverEarnings}), 0)::text`,
      count: sql<number>`count(*)::int`,
    })
    .from(orders)
    .where(and(eq(orders.driverId, driverId), eq(orders.status, 'delivered')));
  return { total: row?.total ?? '0', count: row?.count ?? 0 };
}
