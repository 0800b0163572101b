import type { Db } from '../../db/client';
import { canReadDeliveryCode, canSeeOrderPrices, isAdmin } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import type { Order, OrderListQuery } from '../../../domain/orders';
import { toOrder } from './order-views';
import { findOrderDisputes } from './order-disputes';
import { listOrders, listOrdersOfPayment, type OrderWithDetails } from './orders.queries';

/**
 * GET /api/orders: the orders the user is a party of, newest first; admins see every order unless
 * they ask for one link with `as`.
 */
export async function listOwnOrders(db: Db, actor: Actor, query: OrderListQuery): Promise<Order[]> {
  const all = query.as === undefined && isAdmin(actor);
  const rows = await listOrders(db, {
    userId: all ? undefined : actor.id,
    as: query.as ? [query.as] : ['buyer', 'seller', 'driver'],
    limit: query.limit,
    offset: query.offset,
  });
  const disputes = await findOrderDisputes(
    db,
    rows.map((row) => row.order.paymentId),
  );
  return rows.map((row) =>
    toOrder(
      row,
      canSeeOrderPrices(actor, row.order),
      disputes.get(row.order.paymentId ?? ''),
      canReadDeliveryCode(actor, row.order),
    ),
  );
}

/**
 * The orders a payment made, as its buyer sees them (the payment's own access check has run:
 * `canViewPayment`, or a provider's success report).
 */
export async function listOrdersMadeByPayment(db: Db, paymentId: string): Promise<Order[]> {
  return ordersAsTheirBuyerSees(await listOrdersOfPayment(db, paymentId));
}

/** Orders as their buyer sees them, prices included (the caller has checked that it is the buyer). */
export function ordersAsTheirBuyerSees(rows: readonly OrderWithDetails[]): Order[] {
  return rows.map((row) => toOrder(row, true, undefined, true));
}
