import type { Db } from '../../db/client';
import { notFound } from '../../platform/errors';
import { canViewMessageThread, partiesOf } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import type { OrderMessage } from '../../../domain/messages';
import { ORDER_NOT_FOUND } from '../../../domain/orders';
import { findOrderParties } from '../orders/order-records';
import { toOrderMessage } from './message-views';
import { listOrderThread, markOrderThreadRead } from './messages.queries';

/**
 * GET /api/messages/order/{orderId} (docs/rules/selling.md, Reviews and messages): the order's
 * conversation, oldest first, for its buyer, seller, driver and admins; 404 for anyone else.
 * Reading it marks it read for a party (it clears their unread count).
 */
export async function listOrderMessages(db: Db, actor: Actor, orderId: string): Promise<OrderMessage[]> {
  const order = await findOrderParties(db, orderId);
  if (!order || !canViewMessageThread(actor, { kind: 'order', ...order })) throw notFound(ORDER_NOT_FOUND);
  const rows = await listOrderThread(db, orderId);
  if (partiesOf(actor, order).some((party) => party !== 'admin')) {
    await markOrderThreadRead(db, actor.id, orderId);
  }
  return rows.map((row) => toOrderMessage(row, order));
}
