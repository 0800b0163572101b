import { and, asc, desc, eq, gte, inArray, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { addresses, orderItems, orders, orderStatusEvents, products } from '../../db/schema';

export type OrderRow = typeof orders.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;
export type OrderEventRow = typeof orderStatusEvents.$inferSelect;
type AddressRow = typeof addresses.$inferSelect;

export interface OrderWithDetails {
  order: OrderRow;
  pickup: AddressRow | null;
  itemCount: number;
}

/** Orders with the pickup address and the number of units, for the API's order shape. */
function selectOrders(db: Db) {
  return db
    .select({
      order: orders,
      pickup: addresses,
      itemCount: sql<number>`(select coalesce(sum(${orderItems.quantity}), 0)::int from ${orderItems} where ${orderItems.orderId} = ${orders.id})`,
    })
    .from(orders)
    .leftJoin(addresses, eq(addresses.id, orders.pickupAddressId));
}

export async function findOrderById(db: Db, id: string): Promise<OrderWithDetails | undefined> {
  const rows = await selectOrders(db).where(eq(orders.id, id)).limit(1);
  return rows[0];
}

export interface OrderFilter {
  /** Orders where this user is the buyer, the seller or the driver (any of `as`); undefined: all orders. */
  userId: string | undefined;
  as: readonly ('buyer' | 'seller' | 'driver')[];
  limit: number;
  offset: number;
}

/** Newest first. */
export async function listOrders(db: Db, filter: OrderFilter): Promise<OrderWithDetails[]> {
  let where: SQL | undefined;
  if (filter.userId !== undefined) {
    // No link asked for means no orders, never "every order".
    if (filter.as.length === 0) return [];
    const column = { buyer: orders.buyerId, seller: orders.sellerId, driver: orders.driverId };
    where = or(...filter.as.map((party) => eq(column[party], filter.userId ?? '')));
  }
  return selectOrders(db)
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(filter.limit)
    .offset(filter.offset);
}

export async function listOrdersOfPayment(db: Db, paymentId: string): Promise<OrderWithDetails[]> {
  return selectOrders(db)
    .where(eq(orders.paymentId, paymentId))
    .orderBy(asc(orders.createdAt), asc(orders.orderNumber));
}

/** Items with what the product says about itself now (name, description, image). */
export async function listItemsOfOrder(db: Db, orderId: string) {
  return db
    .select({
      item: orderItems,
      productName: products.name,
      productDescription: products.description,
      productImageUrl: products.imageUrl,
    })
    .from(orderItems)
    .innerJoin(products, eq(products.id, orderItems.productId))
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.createdAt), asc(orderItems.id));
}

export async function listEventsOfOrder(db: Db, orderId: string): Promise<OrderEventRow[]> {
  return db
    .select()
    .from(orderStatusEvents)
    .where(eq(orderStatusEvents.orderId, orderId))
    .orderBy(asc(orderStatusEvents.createdAt), asc(orderStatusEvents.id));
}

/**
 * Takes stock atomically (docs/product-rules.md, Checkout and orders): the row changes only if
 * enough is left and the product is still on sale, so two buyers racing for the last unit cannot
 * both get it.
 */
export async function takeStock(db: Db, productId: string, quantity: number): Promise<boolean> {
  const rows = await db
    .update(products)
    .set({ stock: sql`${products.stock} - ${quantity}`, updatedAt: new Date() })
    .where(and(eq(products.id, productId), gte(products.stock, quantity), eq(products.available, true)))
    .returning({ id: products.id });
  return rows.length === 1;
}

export async function restoreStock(db: Db, productId: string, quantity: number): Promise<void> {
  await db
    .update(products)
    .set({ stock: sql`${products.stock} + ${quantity}`, updatedAt: new Date() })
    .where(eq(products.id, productId));
}

/**
 * The seller's paid, not cancelled product subtotal in [from, to), as numeric text
 * (docs/product-rules.md, Fees and commission).
 */
export async function sumSellerSales(db: Db, sellerId: string, from: Date, to: Date): Promise<string> {
  const rows = await db
    .select({ total: sql<string>`coalesce(sum(${orders.productSubtotal}), 0)::text` })
    .from(orders)
    .where(
      and(
        eq(orders.sellerId, sellerId),
        ne(orders.status, 'cancelled'),
        gte(orders.createdAt, from),
        lt(orders.createdAt, to),
      ),
    );
  return rows[0]?.total ?? '0';
}

/** Which of these addresses still exist (an address may be deleted between payment and order). */
export async function existingAddressIds(db: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.select({ id: addresses.id }).from(addresses).where(inArray(addresses.id, ids));
  return new Set(rows.map((row) => row.id));
}

/** Inserts unless the order number is taken (then nothing, and the caller draws another). */
export async function insertOrderUnlessNumberTaken(
  db: Db,
  values: typeof orders.$inferInsert,
): Promise<OrderRow | undefined> {
  const rows = await db
    .insert(orders)
    .values(values)
    .onConflictDoNothing({ target: orders.orderNumber })
    .returning();
  return rows[0];
}

export async function insertOrderItems(db: Db, values: (typeof orderItems.$inferInsert)[]): Promise<void> {
  if (values.length > 0) await db.insert(orderItems).values(values);
}

export async function insertStatusEvent(
  db: Db,
  values: typeof orderStatusEvents.$inferInsert,
): Promise<void> {
  await db.insert(orderStatusEvents).values(values);
}

/**
 * Every status change is conditional on the status it was decided on
 * (docs/product-rules.md, Order lifecycle).
 */
export async function updateOrderStatus(
  db: Db,
  id: string,
  from: string,
  to: string,
  now: Date,
): Promise<OrderRow | undefined> {
  const rows = await db
    .update(orders)
    .set({ status: to, updatedAt: now })
    .where(and(eq(orders.id, id), eq(orders.status, from)))
    .returning();
  return rows[0];
}

export async function listItemRowsOfOrder(db: Db, orderId: string): Promise<OrderItemRow[]> {
  return db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
}
