import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { builtOnce } from '../../db/built-once';
import type { Db } from '../../db/client';
import { addresses, payments, products, users } from '../../db/schema';

export type CheckoutProductRow = Awaited<ReturnType<typeof findProductsForCheckout>>[number];
export type AddressRow = typeof addresses.$inferSelect;

const sellerAddress = alias(addresses, 'seller_address');
const deliveryAddress = alias(addresses, 'delivery_address');

/**
 * The products of a cart with their sellers' names and primary addresses (where a pickup happens
 * and where a driver collects), and the buyer's chosen delivery address when one is asked for, read
 * fresh for pricing in one statement (docs/rules/catalog-and-orders.md, Checkout and orders;
 * docs/decisions/0028-checkout-throughput.md, Fewer statements). A seller has at most one
 * primary address, so each product is one row; `deliveryAddress` is the same on every row.
 */
export async function findProductsForCheckout(
  db: Db,
  ids: string[],
  delivery?: { userId: string; addressId: string },
  /** A buyer whose open payments (by checkout key) are read with the products, for a payment to start. */
  openPaymentsOf?: string,
) {
  if (ids.length === 0) return [];
  return productsForCheckout(db).execute({
    ids,
    deliveryAddressId: delivery?.addressId ?? null,
    deliveryUserId: delivery?.userId ?? null,
    openPaymentsOf: openPaymentsOf ?? null,
  });
}

/**
 * Built once: without a delivery address its placeholders are null, and `= null` joins nothing; so
 * without a buyer whose open payments are asked for. Those are the ids of the buyer's payments not
 * yet processed and charged or waiting for the card, by checkout key (as payments_open_checkout_unique
 * keeps them), the same on every row: a payment starting reads the one of its checkout only when
 * there is one (docs/decisions/0025-checkout-statements.md, The open payment read with the products).
 */
const productsForCheckout = builtOnce((db) =>
  db
    .select({
      product: products,
      sellerFirstName: users.firstName,
      sellerLastName: users.lastName,
      sellerAddress,
      deliveryAddress,
      openPayments: sql<Record<string, string> | null>`(
        select json_object_agg(${payments.checkoutKey}, ${payments.id})
        from ${payments}
        where ${payments.buyerId} = ${sql.placeholder('openPaymentsOf')}::uuid
          and ${payments.processedAt} is null
          and ${payments.status} in ('requires_payment', 'succeeded')
          and ${payments.checkoutKey} is not null
      )`,
    })
    .from(products)
    .innerJoin(users, eq(users.id, products.sellerId))
    .leftJoin(
      sellerAddress,
      and(eq(sellerAddress.userId, products.sellerId), eq(sellerAddress.isPrimary, true)),
    )
    .leftJoin(
      deliveryAddress,
      and(
        eq(deliveryAddress.id, sql.placeholder('deliveryAddressId')),
        eq(deliveryAddress.userId, sql.placeholder('deliveryUserId')),
      ),
    )
    .where(sql`${products.id} = any(${sql.placeholder('ids')}::uuid[])`)
    .prepare(''),
);

export async function findAddressOfUser(db: Db, userId: string, id: string): Promise<AddressRow | undefined> {
  const rows = await db
    .select()
    .from(addresses)
    .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
    .limit(1);
  return rows[0];
}
