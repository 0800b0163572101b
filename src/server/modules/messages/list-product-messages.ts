import type { Db } from '../../db/client';
import type { Actor } from '../../platform/sessions';
import type { ProductMessage, ProductMessagesQuery } from '../../../domain/messages';
import { findProductThread } from './find-product-thread';
import { toProductMessage } from './message-views';
import { listProductThread, markProductThreadRead } from './messages.queries';

/**
 * GET /api/product-messages (docs/rules/selling.md, Reviews and messages): the conversation, oldest
 * first. Reading it marks it read for the reader, which clears its unread count.
 */
export async function listProductMessages(
  db: Db,
  actor: Actor,
  query: ProductMessagesQuery,
): Promise<ProductMessage[]> {
  const thread = await findProductThread(db, actor, query.productId, query.buyerId);
  const rows = await listProductThread(db, thread.productId, thread.buyerId);
  await markProductThreadRead(db, actor.id, thread.productId, thread.buyerId);
  return rows.map(toProductMessage);
}
