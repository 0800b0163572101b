import { AppError, conflict, forbidden, notFound } from '../../platform/errors';
import { announceOrderChange } from '../../platform/live-events';
import {
  canChangeOrderStatus,
  canReadDeliveryCode,
  canSeeOrderPrices,
  canViewOrder,
  partiesOf,
} from '../../platform/policy';
import type { Db } from '../../db/client';
import type { Actor } from '../../platform/sessions';
import {
  fulfilmentOf,
  isFulfilled,
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
import { proofMissingMessage, proofNeededFor } from '../../../domain/delivery-proof';
import { findOrderById, type OrderRow, type OrderWithDetails } from './orders.queries';
import { getDeliveryProofSettings } from '../delivery-proof/delivery-proof.service';
import { recordStatusChange } from './record-status-change';
import { toOrder } from './order-views';
import { findOrderDisputes } from './order-disputes';
import type { OrderDeps } from './order-deps';
import type { AfterCommit } from './order-steps';

/** Why the actor may not make this step: who may, or why not now (docs/rules/catalog-and-orders.md, Order lifecycle). */
export function refusal(actor: Actor, found: OrderWithDetails, to: OrderStatus): AppError {
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
 * timeline event with the actor and the time (docs/rules/catalog-and-orders.md, Order lifecycle). A non-party
 * gets 404; a party who may not make the step 403; a step out of order 409.
 */
export async function changeOrderStatus(
  deps: OrderDeps,
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
  if (to === 'delivered' && fulfilmentOf(order) === 'driver') {
    // Mark Delivered by a driver gives its proof through POST /api/orders/{id}/deliver when the
    // marketplace asks for one (docs/rules/deliveries.md, Deliveries).
    const needed = proofNeededFor(await getDeliveryProofSettings(deps.db), order);
    if (needed.photo || needed.code) throw conflict(proofMissingMessage(needed));
  }
  const now = deps.now();
  const afterCommit = await deps.db.transaction((tx) =>
    recordStepInTransaction(tx, deps, { order, from, to, actor, now }),
  );
  return finishStep(deps, actor, id, { from, to, afterCommit });
}

/**
 * The step inside the caller's transaction: the conditional status change with its event, and a
 * finished order announced to the money, which records its earnings as payouts; the money moves
 * after the commit (the answer), and the retry job finishes it if this process dies in between
 * (docs/rules/catalog-and-orders.md, Order lifecycle; docs/ARCHITECTURE.md, Money flows one way).
 */
export async function recordStepInTransaction(
  tx: Db,
  deps: Pick<OrderDeps, 'orderSteps'>,
  step: {
    order: OrderRow;
    from: OrderStatus;
    to: OrderStatus;
    actor: Actor;
    now: Date;
  },
): Promise<AfterCommit | undefined> {
  const { order, from, to, actor, now } = step;
  await recordStatusChange(tx, { orderId: order.id, from, to, actor, now });
  if (isFulfilled(to)) return deps.orderSteps.finished(tx, order, now);
  return undefined;
}

/** After the commit: the payouts of a finished order are sent, the parties told, the order answered. */
export async function finishStep(
  deps: OrderDeps,
  actor: Actor,
  id: string,
  step: { from: OrderStatus; to: OrderStatus; afterCommit: AfterCommit | undefined },
): Promise<Order> {
  const { from } = step;
  if (step.afterCommit) await step.afterCommit(deps.log);
  const changed = await findOrderById(deps.db, id);
  if (!changed) throw notFound(ORDER_NOT_FOUND);
  await announceOrderChange(deps.db, changed.order, { from, actorId: actor.id });
  const disputes = await findOrderDisputes(deps.db, [changed.order.paymentId]);
  return toOrder(
    changed,
    canSeeOrderPrices(actor, changed.order),
    disputes.get(changed.order.paymentId ?? ''),
    canReadDeliveryCode(actor, changed.order),
  );
}
