import { conflict, notFound, type AppError } from '../../platform/errors';
import { announceOrderChange } from '../../platform/live-events';
import { canHandBackOrder, canManageDelivery } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import { recordDecline } from '../deliveries/driver-declines';
import { HAND_BACK_AFTER_START } from '../../../domain/deliveries';
import { orderStatusSchema, STATUS_BADGE } from '../../../domain/order-status';
import { ORDER_NOT_FOUND } from '../../../domain/orders';
import type { OrderDeps } from './order-deps';
import { findOrderRow, type OrderRow } from './orders.queries';
import { recordHandBack } from './record-status-change';

/** Why the assigned driver cannot hand this order back now: it went on, or it was cancelled. */
function cannotHandBack(order: Pick<OrderRow, 'status'>): AppError {
  const status = orderStatusSchema.parse(order.status);
  if (status === 'in-transit' || status === 'delivered') return conflict(HAND_BACK_AFTER_START);
  return conflict(`This order is ${STATUS_BADGE[status]}: it can no longer be handed back.`);
}

/**
 * POST /api/orders/{id}/hand-back (docs/rules/deliveries.md, Deliveries): the assigned driver gives
 * an accepted order back before Start Delivery. One transaction: a conditional update (still this
 * driver's and assigned) sets it pending without a driver, an arrival time or a delivery photo, the
 * timeline records it with the driver, and the driver's decline hides it from their own offers.
 * Then the buyer and the seller are told of the change and drivers who may take it of a new offer.
 * Anyone but the assigned driver gets 404; after Start Delivery 409.
 *
 * The delivery photo is cleared rather than kept: the next driver photographs their own load
 * before they start. Its upload stays claimed for this order (readable by its parties and admins,
 * never used again), as a replaced photo's does.
 */
export async function handBackOrder(deps: OrderDeps, actor: Actor, id: string): Promise<void> {
  const order = await findOrderRow(deps.db, id);
  if (!order || !canManageDelivery(actor, order)) throw notFound(ORDER_NOT_FOUND);
  if (!canHandBackOrder(actor, order)) throw cannotHandBack(order);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    if (await recordHandBack(tx, { orderId: id, actor, now })) {
      await recordDecline(tx, actor.id, id, now);
      return;
    }
    // Changed since it was read: started, cancelled, or handed back by a second tap.
    const current = await findOrderRow(tx, id);
    if (!current || !canManageDelivery(actor, current)) throw notFound(ORDER_NOT_FOUND);
    throw cannotHandBack(current);
  });
  await announceOrderChange(
    deps.db,
    { ...order, status: 'pending', driverId: null },
    { from: 'assigned', actorId: actor.id },
  );
}
