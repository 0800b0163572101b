import type { Db } from '../../db/client';
import { publishLiveEvents } from '../../platform/live-events';
import { notFound } from '../../platform/errors';
import { canOpenProductThread, productThreadAudience } from '../../platform/policy';
import type { RateLimiter } from '../../platform/rate-limit';
import type { Actor } from '../../platform/sessions';
import { shortName } from '../../../domain/live-events';
import type { ProductMessage, ProductMessageBody } from '../../../domain/messages';
import { CONVERSATION_NOT_FOUND, findProductThread } from './find-product-thread';
import { nameOf, toProductMessage } from './message-views';
import { hasProductThread, insertProductMessage, markProductThreadRead } from './messages.queries';
import { countMessageSent } from './send-limit';

/**
 * POST /api/product-messages (docs/rules/selling.md, Reviews and messages): a buyer writes to the
 * seller about a product (the first message opens the conversation); the seller answers a buyer
 * who wrote. The buyer and the seller are told at once (Live updates).
 */
export async function postProductMessage(
  deps: { db: Db; limiter: RateLimiter },
  actor: Actor,
  body: ProductMessageBody,
): Promise<ProductMessage> {
  const thread = await findProductThread(deps.db, actor, body.productId, body.buyerId);
  if (
    !canOpenProductThread(actor, thread) &&
    !(await hasProductThread(deps.db, thread.productId, thread.buyerId))
  ) {
    throw notFound(CONVERSATION_NOT_FOUND);
  }
  await countMessageSent(deps.db, deps.limiter, actor.id);
  const row = await insertProductMessage(deps.db, {
    productId: thread.productId,
    buyerId: thread.buyerId,
    sellerId: thread.sellerId,
    senderId: actor.id,
    content: body.content,
  });
  // Writing in a conversation means having read it.
  await markProductThreadRead(deps.db, actor.id, thread.productId, thread.buyerId);
  const senderRole = actor.id === thread.sellerId ? 'seller' : 'buyer';
  await publishLiveEvents(deps.db, [
    {
      event: {
        type: 'product.message',
        productId: thread.productId,
        productName: shortName(thread.productName),
        buyerId: thread.buyerId,
        sellerId: thread.sellerId,
        senderId: actor.id,
        senderName: shortName(nameOf(actor, senderRole)),
      },
      audience: productThreadAudience(thread),
    },
  ]);
  return toProductMessage(row);
}
