import { conflict, notFound } from '../../platform/errors';
import { announceOrderChange } from '../../platform/live-events';
import { canAcceptOrder, isDriverJobFor } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import { requireVerifiedDriver } from '../deliveries/require-verified-driver';
import { canCarryTrailerOrders, ORDER_ALREADY_TAKEN } from '../../../domain/deliveries';
import { ORDER_NOT_FOUND, type Order } from '../../../domain/orders';
import { getOrder } from './get-order';
import { findOrderRow, type OrderRow } from './orders.queries';
import type { OrderDeps } from './order-deps';
import { recordDriverAssigned } from './record-status-change';

const isAcceptedBy = (order: OrderRow | undefined, actor: Actor) =>
  order?.driverId === actor.id && order.status === 'assigned';

/** Why an order offered to this driver once cannot be accepted now. */
function notOffered(current: OrderRow | undefined) {
  if (current?.status === 'cancelled')
    return conflict('This order is no longer available: it was cancelled.');
  return conflict(ORDER_ALREADY_TAKEN);
}

/**
 * POST /api/orders/{id}/assign (docs/rules/deliveries.md, Deliveries): a verified driver (or an admin)
 * accepts an order offered to them, as the transition table allows (`canAcceptOrder`). One
 * conditional update decides, with the timeline's event in the same transaction: of any number of
 * drivers accepting at once exactly one gets the order, the others 409 "This order was already
 * taken". The same driver accepting twice (a double tap) gets the order again. An order never
 * offered to this driver (a pickup, a seller's own delivery, a trailer order without a trailer
 * image) is a 404.
 */
export async function acceptOrder(deps: OrderDeps, actor: Actor, id: string): Promise<Order> {
  requireVerifiedDriver(actor);
  const order = await findOrderRow(deps.db, id);
  if (!order || !isDriverJobFor(actor, order)) throw notFound(ORDER_NOT_FOUND);
  if (isAcceptedBy(order, actor)) return getOrder(deps.db, actor, id);
  if (!canAcceptOrder(actor, order)) throw notOffered(order);
  const hasWon = await deps.db.transaction((tx) =>
    recordDriverAssigned(tx, {
      orderId: id,
      actor,
      hasTrailer: canCarryTrailerOrders(actor),
      now: deps.now(),
    }),
  );
  if (!hasWon) {
    const current = await findOrderRow(deps.db, id);
    if (isAcceptedBy(current, actor)) return getOrder(deps.db, actor, id);
    throw notOffered(current);
  }
  await announceOrderChange(
    deps.db,
    { ...order, status: 'assigned', driverId: actor.id },
    { from: 'pending', actorId: actor.id },
  );
  return getOrder(deps.db, actor, id);
}
