import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { addresses, products, users } from '../../db/schema';

export type CheckoutProductRow = Awaited<ReturnType<typeof findProductsForCheckout>>[number];
export type AddressRow = typeof addresses.$inferSelect;

/**
 * The products of a cart with their sellers' names, read fresh for pricing
 * (docs/product-rules.md, Checkout and orders).
 */
export async function findProductsForCheckout(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      product: products,
      sellerFirstName: users.firstName,
      sellerLastName: users.lastName,
    })
    .from(products)
    .innerJoin(users, eq(users.id, products.sellerId))
    .where(inArray(products.id, ids));
}

export async function findAddressOfUser(db: Db, userId: string, id: string): Promise<AddressRow | undefined> {
  const rows = await db
    .select()
    .from(addresses)
    .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
    .limit(1);
  return rows[0];
}

/** Each seller's primary address: where a pickup happens and where a driver collects. */
export async function findPrimaryAddressesOf(db: Db, userIds: string[]): Promise<Map<string, AddressRow>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(addresses)
    .where(and(inArray(addresses.userId, userIds), eq(addresses.isPrimary, true)));
  return new Map(rows.map((row) => [row.userId, row]));
}
