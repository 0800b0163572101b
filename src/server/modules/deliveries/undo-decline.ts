import { notFound } from '../../platform/errors';
import { isDriverJobFor } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import { ORDER_NOT_FOUND } from '../../../domain/orders';
import type { OrderDeps } from '../orders/order-deps';
import { findOrderRow } from '../orders/order-records';
import { deleteDecline } from './deliveries.queries';
import { requireVerifiedDriver } from './require-verified-driver';

/**
 * DELETE /api/orders/{id}/decline (docs/rules/deliveries.md, Deliveries): a mistaken Decline undone.
 * The driver's decline is removed, so the order shows in their offers again while it is offered.
 * Undoing twice, or without a decline, is the same 204; an order that is not a driver's job for
 * this driver is 404, as for declining.
 */
export async function undoDecline(deps: OrderDeps, actor: Actor, id: string): Promise<void> {
  requireVerifiedDriver(actor);
  const order = await findOrderRow(deps.db, id);
  if (!order || !isDriverJobFor(actor, order)) throw notFound(ORDER_NOT_FOUND);
  await deleteDecline(deps.db, actor.id, id);
}
