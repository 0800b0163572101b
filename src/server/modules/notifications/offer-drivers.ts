import type { Db } from '../../db/client';
import {
  canReceiveLiveEvent,
  isOfferedTo,
  type LiveEventAudience,
  type OrderForOffer,
} from '../../platform/policy';
import { DRIVER_DISTANCE } from '../../../domain/deliveries';
import { listDriversNearOffer } from './offer-drivers.queries';

/**
 * The drivers told of a new offer, by mail and by push alike (docs/decisions/0019-reaching-people.md):
 * drivers not suspended whose primary address is within the driver dashboard's default distance of
 * the pickup ("near"), who did not decline the order, and who may take it now as it stands: the
 * live-offer rule (`canReceiveLiveEvent`: verified, a trailer image for a trailer order) and the
 * offer rule (`isOfferedTo`). Each channel keeps its own of them: mail those who turned offer mail
 * on (`wantsOfferMail`), push those with a device (`hasDevice`). Never the order's own buyer or
 * seller, who know of it already. None without a pickup address.
 */
export async function listDriversToTellOfOffer(
  tx: Db,
  event: LiveEventAudience,
  order: OrderForOffer & { id: string; pickupAddressId: string | null; buyerId: string; sellerId: string },
) {
  if (order.pickupAddressId === null) return [];
  const drivers = await driversNearOnce(tx, order.id, order.pickupAddressId);
  return drivers.filter(
    (driver) =>
      driver.id !== order.buyerId &&
      driver.id !== order.sellerId &&
      canReceiveLiveEvent(driver, event) &&
      isOfferedTo(driver, order),
  );
}

type NearDrivers = ReturnType<typeof listDriversNearOffer>;

/**
 * The drivers near an offer, read once a dispatch: its mail and its push ask the same, in the same
 * transaction, which changes no driver in between (dispatch-live-events.ts).
 */
const nearInTransaction = new WeakMap<Db, Map<string, NearDrivers>>();

function driversNearOnce(tx: Db, orderId: string, pickupAddressId: string): NearDrivers {
  let reads = nearInTransaction.get(tx);
  if (reads === undefined) {
    reads = new Map();
    nearInTransaction.set(tx, reads);
  }
  const key = `${orderId} ${pickupAddressId}`;
  let drivers = reads.get(key);
  if (drivers === undefined) {
    drivers = listDriversNearOffer(tx, { id: orderId, pickupAddressId }, DRIVER_DISTANCE.default);
    reads.set(key, drivers);
  }
  return drivers;
}
