import type { Db } from '../../db/client';
import { conflict } from '../../platform/errors';
import type { Actor } from '../../platform/sessions';
import type { OrderStatus } from '../../../domain/order-status';
import {
  assignDriverIfOffered,
  insertStatusEvent,
  releaseAssignedOrder,
  updateOrderStatus,
} from './orders.queries';

export const ORDER_CHANGED_MEANWHILE =
  'This order was changed at the same moment. Please reload it and try again.';

/**
 * Moves an order from the status it was decided on to the next one, inside the caller's
 * transaction, and records the event with the actor and the time (docs/rules/catalog-and-orders.md, Order
 * lifecycle). The update is conditional on `from`: a change that lost a race is a 409.
 */
export async function recordStatusChange(
  tx: Db,
  change: { orderId: string; from: OrderStatus; to: OrderStatus; actor: Actor; now: Date },
): Promise<void> {
  const updated = await updateOrderStatus(tx, change.orderId, change.from, change.to, change.now);
  if (!updated) throw conflict(ORDER_CHANGED_MEANWHILE);
  await insertStatusEvent(tx, {
    orderId: change.orderId,
    fromStatus: change.from,
    toStatus: change.to,
    actorId: change.actor.id,
    createdAt: change.now,
  });
}

/**
 * Accepting: the order goes from pending to assigned with the actor as its driver, only while it is
 * still offered to them, and the timeline records it in the same transaction (docs/rules/deliveries.md,
 * Deliveries). Answers whether this actor got the order; a lost race changes nothing.
 */
export async function recordDriverAssigned(
  tx: Db,
  change: { orderId: string; actor: Actor; hasTrailer: boolean; now: Date },
): Promise<boolean> {
  const won = await assignDriverIfOffered(tx, {
    orderId: change.orderId,
    driverId: change.actor.id,
    hasTrailer: change.hasTrailer,
    now: change.now,
  });
  if (!won) return false;
  await insertStatusEvent(tx, {
    orderId: change.orderId,
    fromStatus: 'pending',
    toStatus: 'assigned',
    actorId: change.actor.id,
    createdAt: change.now,
  });
  return true;
}

/**
 * Handing back: the order goes from assigned to pending without its driver, only while the actor
 * still holds it, and the timeline records it (assigned → pending by the driver, which the
 * timeline shows as "Driver handed back") in the caller's transaction (docs/rules/deliveries.md,
 * Deliveries). Answers whether it changed; a lost race changes nothing.
 */
export async function recordHandBack(
  tx: Db,
  change: { orderId: string; actor: Actor; now: Date },
): Promise<boolean> {
  const released = await releaseAssignedOrder(tx, {
    orderId: change.orderId,
    driverId: change.actor.id,
    now: change.now,
  });
  if (!released) return false;
  await insertStatusEvent(tx, {
    orderId: change.orderId,
    fromStatus: 'assigned',
    toStatus: 'pending',
    actorId: change.actor.id,
    createdAt: change.now,
  });
  return true;
}
