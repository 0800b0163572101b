import type { Db } from '../../db/client';
import { notFound } from '../../platform/errors';
import { publishLiveEvents } from '../../platform/live-events';
import { canPostToMessageThread, orderAudience } from '../../platform/policy';
import type { RateLimiter } from '../../platform/rate-limit';
import type { Actor } from '../../platform/sessions';
import { shortName } from '../../../domain/live-events';
import type { OrderMessage, OrderMessageBody } from '../../../domain/messages';
import { ORDER_NOT_FOUND } from '../../../domain/orders';
import { findOrderParties } from '../orders/order-records';
import { nameOf, senderRoleOn, toOrderMessage } from './message-views';
import { insertOrderMessage, markOrderThreadRead } from './messages.queries';
import { countMessageSent } from './send-limit';

/**
 * POST /api/messages (docs/rules/selling.md, Reviews and messages): a message in an order's
 * conversation by its buyer, seller, driver or an admin; 404 for anyone else. The order's people
 * are told at once (Live updates).
 */
export async function postOrderMessage(
  deps: { db: Db; limiter: RateLimiter },
  actor: Actor,
  body: OrderMessageBody,
): Promise<OrderMessage> {
  const order = await findOrderParties(deps.db, body.orderId);
  if (!order || !canPostToMessageThread(actor, { kind: 'order', ...order })) throw notFound(ORDER_NOT_FOUND);
  await countMessageSent(deps.db, deps.limiter, actor.id);
  const row = await insertOrderMessage(deps.db, {
    orderId: order.id,
    senderId: actor.id,
    content: body.content,
  });
  const role = senderRoleOn(order, actor.id);
  if (role !== 'admin') await markOrderThreadRead(deps.db, actor.id, order.id);
  await publishLiveEvents(deps.db, [
    {
      event: {
        type: 'order.message',
        orderId: order.id,
        orderNumber: order.orderNumber,
        senderId: actor.id,
        senderName: shortName(nameOf(actor, role)),
      },
      audience: orderAudience(order),
    },
  ]);
  return toOrderMessage(row, order);
}
