import { and, eq, isNull, type SQL } from 'drizzle-orm';
import { orders } from './schema';

/**
 * The offer rule in SQL (docs/rules/deliveries.md, Deliveries, Offered orders), the one SQL form of
 * `isOfferedTo` in src/server/platform/policy.ts: pending, no driver, delivered by a driver (the
 * four of `isOnOffer`), and a trailer order only when the driver has a trailer image
 * (`canCarryTrailerOrders`, which the caller asks). The partial index orders_available_idx
 * (migration 0003) holds exactly the first four conditions, and so do the triggers keeping the
 * offers' places (offer_places, migration 0037), which the driver's list reads nearest first. The
 * list without a place of the driver's reads by the index, and accepting writes by it;
 * src/server/modules/deliveries/offer-rule.test.ts keeps it equal to `isOfferedTo`.
 */
export function offeredSql(hasTrailer: boolean): SQL | undefined {
  return and(
    eq(orders.status, 'pending'),
    isNull(orders.driverId),
    eq(orders.isPickup, false),
    eq(orders.sellerDelivery, false),
    hasTrailer ? undefined : eq(orders.requiresTrailer, false),
  );
}
