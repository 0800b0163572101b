import type { Db } from '../../db/client';
import type { Actor } from '../../platform/sessions';
import type { UnreadMessages, UnreadThread } from '../../../domain/unread-messages';
import { nameOf } from './message-views';
import { listUnreadOrderThreads, listUnreadProductThreads } from './messages.queries';

const iso = (at: Date | null) => (at ?? new Date(0)).toISOString();

/**
 * GET /api/messages/unread: the header's count (docs/rules/selling.md, Reviews and messages) and
 * the conversations behind it, newest first. A conversation counts messages by others after the
 * reader last opened it.
 */
export async function countUnreadMessages(db: Db, actor: Actor): Promise<UnreadMessages> {
  const [orderRows, productRows] = await Promise.all([
    listUnreadOrderThreads(db, actor.id),
    listUnreadProductThreads(db, actor.id),
  ]);
  const threads: UnreadThread[] = [
    ...orderRows.map((row): UnreadThread => ({
      kind: 'order',
      orderId: row.orderId,
      orderNumber: row.orderNumber,
      as: row.buyerId === actor.id ? 'buyer' : row.sellerId === actor.id ? 'seller' : 'driver',
      count: row.count,
      lastAt: iso(row.lastAt),
    })),
    ...productRows.map((row): UnreadThread => {
      const isBuyer = row.buyerId === actor.id;
      return {
        kind: 'product',
        productId: row.productId,
        productName: row.productName,
        buyerId: row.buyerId,
        withName: nameOf(
          { firstName: row.withFirstName, lastName: row.withLastName },
          isBuyer ? 'seller' : 'buyer',
        ),
        as: isBuyer ? 'buyer' : 'seller',
        count: row.count,
        lastAt: iso(row.lastAt),
      };
    }),
  ].sort((a, b) => b.lastAt.localeCompare(a.lastAt));
  return { total: threads.reduce((sum, thread) => sum + thread.count, 0), threads };
}
