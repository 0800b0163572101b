import { asc, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { builtOnce } from '../../db/built-once';
import type { Db } from '../../db/client';
import { addresses, emailPreferences, orderItems, orders, outbox, products, users } from '../../db/schema';

const buyer = alias(users, 'mail_buyer');
const seller = alias(users, 'mail_seller');
const pickup = alias(addresses, 'mail_pickup');
const delivery = alias(addresses, 'mail_delivery');

/**
 * Orders as their mail tells them, by id: the stored row, its buyer and seller, pickup and delivery
 * area. One statement for a dispatch's orders.
 */
export async function findOrdersForMail(db: Db, orderIds: readonly string[]) {
  const rows = orderIds.length === 0 ? [] : await ordersForMail(db).execute({ orderIds: [...orderIds] });
  return new Map(rows.map((row) => [row.order.id, row]));
}

/**
 * Built once: every order's mail reads it
 * (docs/decisions/0028-checkout-throughput.md, Statements built once).
 */
const ordersForMail = builtOnce((db) =>
  db
    .select({
      order: orders,
      buyer: { id: buyer.id, email: buyer.email, firstName: buyer.firstName, roles: buyer.roles },
      seller: { id: seller.id, email: seller.email, firstName: seller.firstName, roles: seller.roles },
      pickup: {
        addressLine1: pickup.addressLine1,
        city: pickup.city,
        state: pickup.state,
        zipCode: pickup.zipCode,
      },
      deliveryArea: { city: delivery.city, state: delivery.state, zipCode: delivery.zipCode },
    })
    .from(orders)
    .innerJoin(buyer, eq(buyer.id, orders.buyerId))
    .innerJoin(seller, eq(seller.id, orders.sellerId))
    .leftJoin(pickup, eq(pickup.id, orders.pickupAddressId))
    .leftJoin(delivery, eq(delivery.id, orders.deliveryAddressId))
    .where(sql`${orders.id} = any(${sql.placeholder('orderIds')}::uuid[])`)
    .prepare(''),
);
export type OrderForMail = NonNullable<ReturnType<Awaited<ReturnType<typeof findOrdersForMail>>['get']>>;

/** The orders' items as charged, by order: name, quantity and the stored unit price, in order. */
export async function listOrderItemsForMail(db: Db, orderIds: readonly string[]) {
  const rows = orderIds.length === 0 ? [] : await orderItemsForMail(db).execute({ orderIds: [...orderIds] });
  const byOrder = new Map<string, { name: string; quantity: number; price: string }[]>();
  for (const { orderId, ...line } of rows) {
    const lines = byOrder.get(orderId);
    if (lines) lines.push(line);
    else byOrder.set(orderId, [line]);
  }
  return byOrder;
}

const orderItemsForMail = builtOnce((db) =>
  db
    .select({
      orderId: orderItems.orderId,
      name: products.name,
      quantity: orderItems.quantity,
      price: orderItems.price,
    })
    .from(orderItems)
    .innerJoin(products, eq(products.id, orderItems.productId))
    .where(sql`${orderItems.orderId} = any(${sql.placeholder('orderIds')}::uuid[])`)
    .orderBy(asc(orderItems.createdAt), asc(orderItems.id))
    .prepare(''),
);

/** The user's mail switches; every switch off without a row. */
export async function findEmailPreferences(db: Db, userId: string): Promise<{ offerAlerts: boolean }> {
  const [row] = await db
    .select({ offerAlerts: emailPreferences.offerAlerts })
    .from(emailPreferences)
    .where(eq(emailPreferences.userId, userId));
  return { offerAlerts: row?.offerAlerts ?? false };
}

export async function storeEmailPreferences(
  db: Db,
  userId: string,
  preferences: { offerAlerts: boolean },
  now: Date,
): Promise<{ offerAlerts: boolean }> {
  const [row] = await db
    .insert(emailPreferences)
    .values({ userId, offerAlerts: preferences.offerAlerts, updatedAt: now })
    .onConflictDoUpdate({
      target: emailPreferences.userId,
      set: { offerAlerts: preferences.offerAlerts, updatedAt: now },
    })
    .returning({ offerAlerts: emailPreferences.offerAlerts });
  return { offerAlerts: row?.offerAlerts ?? preferences.offerAlerts };
}

/** The admin's Mail tab: one page of the outbox's mail, newest first, and how many there are. */
export async function listMail(db: Db, page: { limit: number; offset: number }) {
  const rows = await db
    .select()
    .from(outbox)
    .where(eq(outbox.channel, 'mail'))
    .orderBy(desc(outbox.createdAt), desc(outbox.id))
    .limit(page.limit)
    .offset(page.offset);
  const [count] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(outbox)
    .where(eq(outbox.channel, 'mail'));
  return { rows, total: count?.total ?? 0 };
}
