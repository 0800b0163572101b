import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { builtOnce } from '../../db/built-once';
import type { Db } from '../../db/client';
import { addresses, payments, products, users } from '../../db/schema';

export type CheckoutProductRow = Awaited<ReturnType<typeof findProductsForCheckout>>[number];
export type AddressRow = typeof addresses.$inferSelect;
/** What pricing reads of an address: its id, its text and where it is. */
export type CheckoutAddress = Pick<
  AddressRow,
  'id' | 'addressLine1' | 'addressLine2' | 'city' | 'state' | 'zipCode' | 'latitude' | 'longitude'
>;

const sellerAddress = alias(addresses, 'seller_address');
const deliveryAddress = alias(addresses, 'delivery_address');

/** The columns of an address pricing reads (`CheckoutAddress`). */
function checkoutAddressColumns<A extends typeof sellerAddress | typeof deliveryAddress>(address: A) {
  return {
    id: address.id,
    addressLine1: address.addressLine1,
    addressLine2: address.addressLine2,
    city: address.city,
    state: address.state,
    zipCode: address.zipCode,
    latitude: address.latitude,
    longitude: address.longitude,
  };
}

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
  const rows = await productsForCheckout(db).execute({
    ids,
    deliveryAddressId: delivery?.addressId ?? null,
    deliveryUserId: delivery?.userId ?? null,
    openPaymentsOf: openPaymentsOf ?? null,
  });
  return rows.map((row) => ({
    ...row,
    sellerAddress: joinedAddress(row.sellerAddress),
    deliveryAddress: joinedAddress(row.deliveryAddress),
  }));
}

/**
 * A left-joined address as read: null when the join found none (drizzle answers null for the
 * object when its first column, the key, is null; its types leave each column nullable instead).
 */
function joinedAddress(
  address: { [K in keyof CheckoutAddress]: CheckoutAddress[K] | null } | null,
): CheckoutAddress | null {
  return address && address.id !== null ? (address as CheckoutAddress) : null;
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
      // Only what pricing and the stock checks read: every column more is parsed and mapped on
      // each of a checkout's two reads (docs/decisions/0025-checkout-statements.md, Columns read).
      product: {
        id: products.id,
        sellerId: products.sellerId,
        name: products.name,
        imageUrl: products.imageUrl,
        price: products.price,
        stock: products.stock,
        onSale: products.onSale,
        requiresTrailer: products.requiresTrailer,
        sellerDelivery: products.sellerDelivery,
        sellerDeliveryFee: products.sellerDeliveryFee,
        offerPickup: products.offerPickup,
      },
      sellerFirstName: users.firstName,
      sellerLastName: users.lastName,
      sellerAddress: checkoutAddressColumns(sellerAddress),
      deliveryAddress: checkoutAddressColumns(deliveryAddress),
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
