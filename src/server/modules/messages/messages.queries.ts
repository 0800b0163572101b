import { and, desc, eq, gt, max, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import {
  messages,
  orderMessageReads,
  orders,
  productMessageReads,
  productMessages,
  products,
  users,
} from '../../db/schema';

export type ProductMessageRow = typeof productMessages.$inferSelect;

/** A conversation shows at most its newest messages (older ones stay stored). */
export const THREAD_MESSAGES_SHOWN = 500;

const NEVER_READ = sql`'-infinity'::timestamptz`;

export async function findProductSeller(
  db: Db,
  productId: string,
): Promise<{ id: string; name: string; sellerId: string } | undefined> {
  const rows = await db
    .select({ id: products.id, name: products.name, sellerId: products.sellerId })
    .from(products)
    .where(eq(products.id, productId))
    .limit(1);
  return rows[0];
}

const inProductThread = (productId: string, buyerId: string) =>
  and(eq(productMessages.productId, productId), eq(productMessages.buyerId, buyerId));

/** The conversation of one buyer about one product, oldest first. */
export async function listProductThread(
  db: Db,
  productId: string,
  buyerId: string,
): Promise<ProductMessageRow[]> {
  const newest = await db
    .select()
    .from(productMessages)
    .where(inProductThread(productId, buyerId))
    .orderBy(desc(productMessages.createdAt), desc(productMessages.id))
    .limit(THREAD_MESSAGES_SHOWN);
  return newest.reverse();
}

export async function hasProductThread(db: Db, productId: string, buyerId: string): Promise<boolean> {
  const rows = await db
    .select({ id: productMessages.id })
    .from(productMessages)
    .where(inProductThread(productId, buyerId))
    .limit(1);
  return rows.length > 0;
}

export async function insertProductMessage(
  db: Db,
  values: Pick<ProductMessageRow, 'productId' | 'buyerId' | 'sellerId' | 'senderId' | 'content'>,
): Promise<ProductMessageRow> {
  const [row] = await db.insert(productMessages).values(values).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** Marks the conversation read up to its newest message (never backwards). */
export async function markProductThreadRead(
  db: Db,
  userId: string,
  productId: string,
  buyerId: string,
): Promise<void> {
  if (!(await hasProductThread(db, productId, buyerId))) return;
  // Taken in SQL: a JavaScript Date would cut the microseconds, leaving the newest message unread.
  const newest = sql<Date>`(select max(${productMessages.createdAt}) from ${productMessages}
    where ${productMessages.productId} = ${productId} and ${productMessages.buyerId} = ${buyerId})`;
  await db
    .insert(productMessageReads)
    .values({ userId, productId, buyerId, readAt: newest })
    .onConflictDoUpdate({
      target: [productMessageReads.userId, productMessageReads.productId, productMessageReads.buyerId],
      set: { readAt: sql`greatest(${productMessageReads.readAt}, excluded.read_at)` },
    });
}

export interface OrderMessageRow {
  id: string;
  orderId: string;
  senderId: string;
  content: string;
  createdAt: Date;
  senderFirstName: string | null;
  senderLastName: string | null;
}

const orderMessageFields = {
  id: messages.id,
  orderId: messages.orderId,
  senderId: messages.senderId,
  content: messages.content,
  createdAt: messages.createdAt,
  senderFirstName: users.firstName,
  senderLastName: users.lastName,
};

/** An order's conversation with each sender's name, oldest first. */
export async function listOrderThread(db: Db, orderId: string): Promise<OrderMessageRow[]> {
  const newest = await db
    .select(orderMessageFields)
    .from(messages)
    .innerJoin(users, eq(users.id, messages.senderId))
    .where(eq(messages.orderId, orderId))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(THREAD_MESSAGES_SHOWN);
  return newest.reverse();
}

export async function insertOrderMessage(
  db: Db,
  values: { orderId: string; senderId: string; content: string },
): Promise<OrderMessageRow> {
  const [inserted] = await db.insert(messages).values(values).returning({ id: messages.id });
  if (!inserted) throw new Error('insert returned no row');
  const [row] = await db
    .select(orderMessageFields)
    .from(messages)
    .innerJoin(users, eq(users.id, messages.senderId))
    .where(eq(messages.id, inserted.id));
  if (!row) throw new Error('message not found after insert');
  return row;
}

export async function markOrderThreadRead(db: Db, userId: string, orderId: string): Promise<void> {
  const [any] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(eq(messages.orderId, orderId))
    .limit(1);
  if (!any) return;
  // Taken in SQL, as for product conversations: a Date would cut the microseconds.
  const newest = sql<Date>`(select max(${messages.createdAt}) from ${messages} where ${messages.orderId} = ${orderId})`;
  await db
    .insert(orderMessageReads)
    .values({ userId, orderId, readAt: newest })
    .onConflictDoUpdate({
      target: [orderMessageReads.userId, orderMessageReads.orderId],
      set: { readAt: sql`greatest(${orderMessageReads.readAt}, excluded.read_at)` },
    });
}

/** Messages by someone else after the reader's marker (or all of them, never opened). */
const unreadProductMessage = (userId: string): SQL =>
  sql`${productMessages.senderId} <> ${userId} and ${productMessages.createdAt} > coalesce(${productMessageReads.readAt}, ${NEVER_READ})`;

const productReadOf = (userId: string) =>
  and(
    eq(productMessageReads.userId, userId),
    eq(productMessageReads.productId, productMessages.productId),
    eq(productMessageReads.buyerId, productMessages.buyerId),
  );

const buyer = alias(users, 'buyer');

/** The conversations about the seller's products, the one with the newest message first. */
export async function listSellerThreads(db: Db, sellerId: string, limit: number) {
  const lastMessage = sql<{ content: string; senderId: string; createdAt: string }>`(
    select json_build_object('content', left(x.content, 200), 'senderId', x.sender_id, 'createdAt', x.created_at)
    from product_messages x
    where x.product_id = ${productMessages.productId} and x.buyer_id = ${productMessages.buyerId}
    order by x.created_at desc, x.id desc limit 1)`;
  return db
    .select({
      productId: productMessages.productId,
      productName: products.name,
      productImageUrl: products.imageUrl,
      buyerId: productMessages.buyerId,
      buyerFirstName: buyer.firstName,
      buyerLastName: buyer.lastName,
      messageCount: sql<number>`count(*)::int`,
      unreadCount: sql<number>`(count(*) filter (where ${unreadProductMessage(sellerId)}))::int`,
      lastAt: max(productMessages.createdAt),
      lastMessage,
    })
    .from(productMessages)
    .innerJoin(products, eq(products.id, productMessages.productId))
    .innerJoin(buyer, eq(buyer.id, productMessages.buyerId))
    .leftJoin(productMessageReads, productReadOf(sellerId))
    .where(eq(productMessages.sellerId, sellerId))
    .groupBy(
      productMessages.productId,
      products.name,
      products.imageUrl,
      productMessages.buyerId,
      buyer.firstName,
      buyer.lastName,
      productMessageReads.readAt,
    )
    .orderBy(desc(max(productMessages.createdAt)))
    .limit(limit);
}

const counterpart = alias(users, 'counterpart');

/** The product conversations of the user (as buyer or seller) with messages they have not read. */
export async function listUnreadProductThreads(db: Db, userId: string) {
  return db
    .select({
      productId: productMessages.productId,
      productName: products.name,
      buyerId: productMessages.buyerId,
      sellerId: productMessages.sellerId,
      withFirstName: counterpart.firstName,
      withLastName: counterpart.lastName,
      count: sql<number>`count(*)::int`,
      lastAt: max(productMessages.createdAt),
    })
    .from(productMessages)
    .innerJoin(products, eq(products.id, productMessages.productId))
    .innerJoin(
      counterpart,
      sql`${counterpart.id} = case when ${productMessages.buyerId} = ${userId} then ${productMessages.sellerId} else ${productMessages.buyerId} end`,
    )
    .leftJoin(productMessageReads, productReadOf(userId))
    .where(
      and(
        or(eq(productMessages.buyerId, userId), eq(productMessages.sellerId, userId)),
        ne(productMessages.senderId, userId),
        gt(productMessages.createdAt, sql`coalesce(${productMessageReads.readAt}, ${NEVER_READ})`),
      ),
    )
    .groupBy(
      productMessages.productId,
      products.name,
      productMessages.buyerId,
      productMessages.sellerId,
      counterpart.firstName,
      counterpart.lastName,
    )
    .orderBy(desc(max(productMessages.createdAt)));
}

/**
 * The orders the user is the buyer, seller or driver of, with messages they have not read. Admins
 * are not counted for orders they are not a party of (they are not told of every conversation).
 */
export async function listUnreadOrderThreads(db: Db, userId: string) {
  return db
    .select({
      orderId: messages.orderId,
      orderNumber: orders.orderNumber,
      buyerId: orders.buyerId,
      sellerId: orders.sellerId,
      driverId: orders.driverId,
      count: sql<number>`count(*)::int`,
      lastAt: max(messages.createdAt),
    })
    .from(messages)
    .innerJoin(orders, eq(orders.id, messages.orderId))
    .leftJoin(
      orderMessageReads,
      and(eq(orderMessageReads.userId, userId), eq(orderMessageReads.orderId, messages.orderId)),
    )
    .where(
      and(
        or(eq(orders.buyerId, userId), eq(orders.sellerId, userId), eq(orders.driverId, userId)),
        ne(messages.senderId, userId),
        gt(messages.createdAt, sql`coalesce(${orderMessageReads.readAt}, ${NEVER_READ})`),
      ),
    )
    .groupBy(messages.orderId, orders.orderNumber, orders.buyerId, orders.sellerId, orders.driverId)
    .orderBy(desc(max(messages.createdAt)));
}
