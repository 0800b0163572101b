import { badRequest, conflict, notFound } from '../../platform/errors';
import { publishLiveEvents } from '../../platform/live-events';
import { canManageDelivery, orderAudience } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import { getOrder } from './get-order';
import { ORDER_CHANGED_MEANWHILE } from './record-status-change';
import { arrivalTimeProblem, type EstimatedTimeBody } from '../../../domain/deliveries';
import { ORDER_NOT_FOUND, type Order } from '../../../domain/orders';
import type { OrderDeps } from './order-deps';
import { findOrderRow, setEstimatedDeliveryTime } from './orders.queries';
import { assertDeliveryInProgress } from './delivery-rules';

/**
 * PATCH /api/orders/{id}/estimated-time (docs/rules/deliveries.md, Deliveries): the assigned driver's
 * expected arrival, in the future and at most 14 days ahead, while the order is assigned or in
 * transit. Anyone else gets 404; a finished order 409. The order's parties are told at once by the
 * `order.arrival` live event, written in the change's transaction (docs/rules/live-updates.md, Live
 * updates; docs/decisions/0019-reaching-people.md).
 */
export async function setEstimatedTime(
  deps: OrderDeps,
  actor: Actor,
  id: string,
  body: EstimatedTimeBody,
): Promise<Order> {
  const order = await findOrderRow(deps.db, id);
  if (!order || !canManageDelivery(actor, order)) throw notFound(ORDER_NOT_FOUND);
  assertDeliveryInProgress(order, 'its arrival time');
  const now = deps.now();
  const at = new Date(body.estimatedDeliveryTime);
  const problem = arrivalTimeProblem(at, now);
  if (problem) throw badRequest(problem, { estimatedDeliveryTime: problem });
  const changed = await deps.db.transaction(async (tx) => {
    if (!(await setEstimatedDeliveryTime(tx, { orderId: id, driverId: actor.id, at, now }))) return false;
    await publishLiveEvents(tx, [
      {
        event: {
          type: 'order.arrival',
          orderId: order.id,
          orderNumber: order.orderNumber,
          buyerId: order.buyerId,
          estimatedDeliveryTime: at.toISOString(),
        },
        audience: orderAudience({ ...order, driverId: actor.id }),
      },
    ]);
    return true;
  });
  if (!changed) throw conflict(ORDER_CHANGED_MEANWHILE);
  return getOrder(deps.db, actor, id);
}
