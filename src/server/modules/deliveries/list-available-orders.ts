import type { Db } from '../../db/client';
import type { Actor } from '../../platform/sessions';
import { toPickupAddress } from '../addresses/addresses.service';
import { formatCents, parseCents } from '../../../domain/money';
import { distanceLimitOf } from '../../../domain/catalog-distance';
import {
  canCarryTrailerOrders,
  type AvailableOrder,
  type AvailableOrdersQuery,
} from '../../../domain/deliveries';
import { findPrimaryPoint, listAvailableOrders } from './deliveries.queries';
import { requireVerifiedDriver } from './require-verified-driver';

/** Distances are answered with one decimal; the order used the exact value. */
const oneDecimal = (miles: number | null) => (miles === null ? null : Math.round(miles * 10) / 10);

/**
 * GET /api/orders/available (docs/rules/deliveries.md, Deliveries): for verified drivers and admins,
 * the orders offered to them that they have not declined, nearest pickup first, within
 * `maxDistance` miles of their primary address when asked. No prices of the purchase: the driver's
 * earnings only, and the delivery area rather than the buyer's street until the order is accepted.
 */
export async function listOrdersAvailableTo(
  db: Db,
  actor: Actor,
  query: AvailableOrdersQuery,
): Promise<AvailableOrder[]> {
  requireVerifiedDriver(actor);
  const rows = await listAvailableOrders(db, {
    driverId: actor.id,
    hasTrailer: canCarryTrailerOrders(actor),
    origin: await findPrimaryPoint(db, actor.id),
    maxDistance: distanceLimitOf(query.maxDistance),
    limit: query.limit,
    offset: query.offset,
  });
  return rows.map((row) => ({
    id: row.order.id,
    orderNumber: row.order.orderNumber,
    requiresTrailer: row.order.requiresTrailer,
    pickupAddress: row.pickup ? toPickupAddress(row.pickup) : null,
    deliveryArea:
      row.deliveryCity !== null && row.deliveryState !== null && row.deliveryZipCode !== null
        ? { city: row.deliveryCity, state: row.deliveryState, zipCode: row.deliveryZipCode }
        : null,
    deliveryNotes: row.order.deliveryNotes,
    itemCount: row.itemCount,
    items: row.items,
    driverEarnings: formatCents(parseCents(row.order.driverEarnings)),
    pickupDistance: oneDecimal(row.pickupDistance),
    deliveryDistance: oneDecimal(row.deliveryDistance),
    createdAt: row.order.createdAt.toISOString(),
  }));
}
