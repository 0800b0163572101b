import type { Db } from '../../db/client';
import type { Actor } from '../../platform/sessions';
import type { ProductThread } from '../../../domain/messages';
import { nameOf } from './message-views';
import { listSellerThreads } from './messages.queries';

/** The seller's Messages tab lists at most this many conversations, the latest first. */
export const SELLER_THREADS_LISTED = 100;

/**
 * GET /api/product-messages/threads: the conversations buyers opened about the caller's products,
 * by product and buyer, with how many messages the seller has not read (docs/rules/selling.md,
 * Reviews and messages). Someone who sells nothing gets an empty list.
 */
export async function listProductThreads(db: Db, actor: Actor): Promise<ProductThread[]> {
  const rows = await listSellerThreads(db, actor.id, SELLER_THREADS_LISTED);
  return rows.map((row) => ({
    productId: row.productId,
    productName: row.productName,
    productImageUrl: row.productImageUrl,
    buyerId: row.buyerId,
    buyerName: nameOf({ firstName: row.buyerFirstName, lastName: row.buyerLastName }, 'buyer'),
    lastMessage: {
      content: row.lastMessage.content,
      senderId: row.lastMessage.senderId,
      createdAt: new Date(row.lastMessage.createdAt).toISOString(),
    },
    messageCount: row.messageCount,
    unreadCount: row.unreadCount,
  }));
}
