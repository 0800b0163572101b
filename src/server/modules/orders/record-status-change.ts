import type { Db } from '../../db/client';
import { conflict } from '../../platform/errors';
import type { Actor } from '../../platform/sessions';
import type { OrderStatus } from '../../../domain/order-status';
import { insertStatusEvent, updateOrderStatus } from './orders.queries';

export const ORDER_CHANGED_MEANWHILE =
  'This order was changed at the same moment. Please reload it and try again.';

/**
 * Moves an order from the status it was decided on to the next one, inside the caller's
 * transaction, and records the event with the actor and the time (docs/product-rules.md, Order
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
