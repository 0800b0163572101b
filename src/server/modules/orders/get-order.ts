import type { Db } from '../../db/client';
import { notFound } from '../../platform/errors';
import { canReadDeliveryCode, canSeeOrderPrices, canViewOrder } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import { ORDER_NOT_FOUND, type Order, type OrderEvent, type OrderItem } from '../../../domain/orders';
import { toOrder, toOrderEvent, toOrderItem } from './order-views';
import { findOrderDisputes } from './order-disputes';
import { findOrderById, listEventsOfOrder, listItemsOfOrder, type OrderWithDetails } from './orders.queries';

/**
 * The order if the actor may see it; 404 otherwise, whether it exists or not
 * (docs/rules/accounts.md, Roles and permissions). Every operation on one order starts here.
 */
export async function findVisibleOrder(db: Db, actor: Actor, id: string): Promise<OrderWithDetails> {
  const found = await findOrderById(db, id);
  if (!found || !canViewOrder(actor, found.order)) throw notFound(ORDER_NOT_FOUND);
  return found;
}

/** GET /api/orders/{id}. */
export async function getOrder(db: Db, actor: Actor, id: string): Promise<Order> {
  const found = await findVisibleOrder(db, actor, id);
  const disputes = await findOrderDisputes(db, [found.order.paymentId]);
  return toOrder(
    found,
    canSeeOrderPrices(actor, found.order),
    disputes.get(found.order.paymentId ?? ''),
    canReadDeliveryCode(actor, found.order),
  );
}

/**
 * GET /api/orders/{id}/items: items with the product's name and description; no prices for a driver
 * (docs/rules/accounts.md, Roles and permissions).
 */
export async function getOrderItems(db: Db, actor: Actor, id: string): Promise<OrderItem[]> {
  const { order } = await findVisibleOrder(db, actor, id);
  const showPrices = canSeeOrderPrices(actor, order);
  const rows = await listItemsOfOrder(db, id);
  return rows.map((row) => toOrderItem(row, showPrices));
}

/**
 * GET /api/orders/{id}/events, the timeline: every status change with its actor and time, oldest
 * first (docs/rules/catalog-and-orders.md, Order lifecycle).
 */
export async function getOrderEvents(db: Db, actor: Actor, id: string): Promise<OrderEvent[]> {
  await findVisibleOrder(db, actor, id);
  const rows = await listEventsOfOrder(db, id);
  return rows.map(toOrderEvent);
}
