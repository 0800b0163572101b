import { conflict, notFound } from '../../platform/errors';
import { isDriverJobFor, isOfferedTo } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import { ORDER_ALREADY_TAKEN } from '../../../domain/deliveries';
import { ORDER_NOT_FOUND } from '../../../domain/orders';
import type { OrderDeps } from '../orders/order-deps';
import { findOrderRow } from '../orders/order-records';
import { recordDecline } from './deliveries.queries';
import { requireVerifiedDriver } from './require-verified-driver';

/**
 * POST /api/orders/{id}/decline (docs/rules/deliveries.md, Deliveries): hides an offered order from
 * this driver only; other drivers still see it. Declining twice is one decline. A driver who
 * declined may still accept the order while it is offered (they changed their mind).
 */
export async function declineOrder(deps: OrderDeps, actor: Actor, id: string): Promise<void> {
  requireVerifiedDriver(actor);
  const order = await findOrderRow(deps.db, id);
  if (!order || !isDriverJobFor(actor, order)) throw notFound(ORDER_NOT_FOUND);
  if (!isOfferedTo(actor, order)) {
    if (order.driverId === actor.id) throw conflict('You accepted this order: it is in My Deliveries.');
    if (order.status === 'cancelled') throw conflict('This order is no longer available: it was cancelled.');
    throw conflict(ORDER_ALREADY_TAKEN);
  }
  await recordDecline(deps.db, actor.id, id, deps.now());
}
