import { AppError, conflict, forbidden } from '../../platform/errors';
import { announceOrderChange } from '../../platform/live-events';
import { actsAsAdminOn, canCancelOrder, partiesOf } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import { recordAdminAction } from '../audit/audit.service';
import { orderStatusSchema, STATUS_BADGE, type OrderStatus, type Party } from '../../../domain/order-status';
import type { Order } from '../../../domain/orders';
import { findVisibleOrder, getOrder } from './get-order';
import type { OrderDeps } from './order-deps';
import { listItemRowsOfOrder } from './orders.queries';
import { restoreStockFor } from '../products/product-stock';
import { recordStatusChange } from './record-status-change';

/** Why the actor may not cancel: 403 for a party who never may (a driver), 409 naming the status. */
function cancelRefusal(status: OrderStatus, parties: Party[]): AppError {
  if (status === 'cancelled') return conflict('This order is already cancelled.');
  if (!parties.some((party) => party === 'buyer' || party === 'seller' || party === 'admin'))
    return forbidden('Only the buyer, the seller or an admin can cancel an order.');
  if (parties.includes('admin'))
    return conflict(`A ${STATUS_BADGE[status].toLowerCase()} order cannot be cancelled.`);
  return conflict(
    `This order can no longer be cancelled: it is ${STATUS_BADGE[status]}. Only pending orders can be cancelled.`,
  );
}

/**
 * POST /api/orders/{id}/cancel (docs/rules/catalog-and-orders.md, Order lifecycle): the buyer or the seller
 * while pending, an admin until finished. One transaction changes the status conditionally, records
 * the event, puts the stock back and announces the cancellation, which records the refund of what
 * is left of the order; the refund is then made through the provider
 * (docs/ARCHITECTURE.md, Money flows one way).
 */
export async function cancelOrder(deps: OrderDeps, actor: Actor, id: string): Promise<Order> {
  const { order } = await findVisibleOrder(deps.db, actor, id);
  const status = orderStatusSchema.parse(order.status);
  if (!canCancelOrder(actor, { ...order, status })) throw cancelRefusal(status, partiesOf(actor, order));
  const now = deps.now();
  const afterCommit = await deps.db.transaction(async (tx) => {
    await recordStatusChange(tx, { orderId: id, from: status, to: 'cancelled', actor, now });
    // A cancellation only the admin role allows goes to the audit trail (docs/rules/known-differences.md,
    // Admin).
    if (actsAsAdminOn(actor, (asParty) => canCancelOrder(asParty, { ...order, status }))) {
      await recordAdminAction(tx, actor, {
        action: 'order.cancelled',
        target: { type: 'order', id, label: order.orderNumber },
        before: { status },
        after: { status: 'cancelled' },
        now,
      });
    }
    await restoreStockFor(tx, await listItemRowsOfOrder(tx, id));
    return deps.orderSteps.cancelled(tx, order, now);
  });
  await announceOrderChange(deps.db, { ...order, status: 'cancelled' }, { from: status, actorId: actor.id });
  await afterCommit(deps.log);
  deps.log.info({ orderId: id, actorId: actor.id, from: status }, 'order cancelled');
  return getOrder(deps.db, actor, id);
}
