import type { PayoutDeps } from '../payouts/payout-deps';
import { settleOrderPayouts } from '../payouts/pay-payout';
import { recordOrderPayouts } from '../payouts/record-order-payouts';
import { AppError, conflict, forbidden, notFound } from '../../platform/errors';
import { announceOrderChange } from '../../platform/live-events';
import { canChangeOrderStatus, canSeeOrderPrices, canViewOrder, partiesOf } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import {
  fulfilmentOf,
  nextStepOf,
  orderStatusSchema,
  STATUS_BADGE,
  type OrderStatus,
} from '../../../domain/order-status';
import {
  ORDER_NOT_FOUND,
  TRAILER_PHOTO_REQUIRED,
  type Order,
  type OrderStatusChangeBody,
} from '../../../domain/orders';
import { findOrderById, type OrderWithDetails } from './orders.queries';
import { recordStatusChange } from './record-status-change';
import { toOrder } from './order-views';
import { findOrderDisputes } from '../disputes/order-disputes';

/** The status change pays out a finished order's earnings after its commit. */
export type ChangeStatusDeps = PayoutDeps;

/** Why the actor may not make this step: who may, or why not now (docs/product-rules.md, Order lifecycle). */
function refusal(actor: Actor, found: OrderWithDetails, to: OrderStatus): AppError {
  const { order } = found;
  const status = orderStatusSchema.parse(order.status);
  const path = fulfilmentOf(order);
  if (status === to) return conflict(`This order is already ${STATUS_BADGE[to]}.`);
  const next = nextStepOf(path, status);
  const mover = path === 'driver' ? 'driver' : 'seller';
  const holdsMover = partiesOf(actor, order).includes(mover);
  if (!holdsMover) {
    return forbidden(
      mover === 'driver'
        ? "Only the order's assigned driver can change its delivery status."
        : "Only the order's seller can change its status.",
    );
  }
  if (!next) return conflict(`This order is ${STATUS_BADGE[status]}: its status can no longer change.`);
  return conflict(
    `This order is ${STATUS_BADGE[status]}: it cannot be marked ${STATUS_BADGE[to]} now. ` +
      `The next step is ${STATUS_BADGE[next.to]}.`,
  );
}

/**
 * PATCH /api/orders/{id}/status: the seller's pickup and seller-delivery steps and the assigned
 * driver's delivery steps, each one conditional update on the status it was decided on and one
 * timeline event with the actor and the time (docs/product-rules.md, Order lifecycle). A non-party
 * gets 404; a party who may not make the step 403; a step out of order 409.
 */
export async function changeOrderStatus(
  deps: ChangeStatusDeps,
  actor: Actor,
  id: string,
  body: OrderStatusChangeBody,
): Promise<Order> {
  const found = await findOrderById(deps.db, id);
  if (!found || !canViewOrder(actor, found.order)) throw notFound(ORDER_NOT_FOUND);
  const { order } = found;
  const from = orderStatusSchema.parse(order.status);
  const to = body.status;
  if (!canChangeOrderStatus(actor, { ...order, status: from }, to)) throw refusal(actor, found, to);
  if (from === 'assigned' && to === 'in-transit' && order.requiresTrailer && !order.deliveryPhotoUrl) {
    throw conflict(TRAILER_PHOTO_REQUIRED);
  }
  const now = deps.now();
  const finishes = to === 'delivered' || to === 'completed';
  await deps.db.transaction(async (tx) => {
    await recordStatusChange(tx, { orderId: id, from, to, actor, now });
    // The earnings become payouts in the same transaction; the money moves after the commit, and
    // the retry job finishes it if this process dies in between (docs/product-rules.md, Order lifecycle).
    if (finishes) await recordOrderPayouts(tx, order, now, deps.holdMs);
  });
  if (finishes) await settleOrderPayouts(deps, id);
  const changed = await findOrderById(deps.db, id);
  if (!changed) throw notFound(ORDER_NOT_FOUND);
  await announceOrderChange(deps.db, changed.order, { from, actorId: actor.id });
  const disputes = await findOrderDisputes(deps.db, [changed.order.paymentId]);
  return toOrder(
    changed,
    canSeeOrderPrices(actor, changed.order),
    disputes.get(changed.order.paymentId ?? ''),
  );
}
