import { and, asc, desc, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { addresses, orders, users } from '../../db/schema';

export type AddressRow = typeof addresses.$inferSelect;

/**
 * What a create or an edit writes; never id, userId or isPrimary from a client
 * (docs/rules/accounts.md, Roles and permissions).
 */
export type AddressValues = Pick<
  typeof addresses.$inferInsert,
  | 'addressLine1'
  | 'addressLine2'
  | 'city'
  | 'state'
  | 'zipCode'
  | 'country'
  | 'latitude'
  | 'longitude'
  | 'isVerified'
>;

/** Primary first, then newest. */
export async function listAddressesOfUser(db: Db, userId: string): Promise<AddressRow[]> {
  return db
    .select()
    .from(addresses)
    .where(eq(addresses.userId, userId))
    .orderBy(desc(addresses.isPrimary), desc(addresses.createdAt), desc(addresses.id));
}

export async function findAddressOfUser(db: Db, userId: string, id: string): Promise<AddressRow | undefined> {
  const rows = await db
    .select()
    .from(addresses)
    .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
    .limit(1);
  return rows[0];
}

/**
 * Serialises every change of a user's primary flag: the user's row is locked until the
 * transaction ends (NO KEY UPDATE, so inserts referencing the user are not blocked).
 */
export async function lockAddressesOfUser(db: Db, userId: string): Promise<void> {
  await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
}

export async function countAddressesOfUser(
  db: Db,
  userId: string,
): Promise<{ total: number; primaries: number }> {
  const rows = await db
    .select({
      total: sql<number>`count(*)::int`,
      primaries: sql<number>`count(*) filter (where ${addresses.isPrimary})::int`,
    })
    .from(addresses)
    .where(eq(addresses.userId, userId));
  return { total: rows[0]?.total ?? 0, primaries: rows[0]?.primaries ?? 0 };
}

export async function insertAddress(
  db: Db,
  values: AddressValues & { userId: string; isPrimary: boolean },
): Promise<AddressRow> {
  const rows = await db.insert(addresses).values(values).returning();
  const row = rows[0];
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function updateAddressOfUser(
  db: Db,
  userId: string,
  id: string,
  values: Partial<AddressValues>,
): Promise<AddressRow | undefined> {
  const rows = await db
    .update(addresses)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
    .returning();
  return rows[0];
}

/**
 * Deletes the address, after locking the orders picked up there in id order: the delete's foreign key
 * sets their pickup to none, and an order's change locks its pickup after its own row (the offers' kept
 * places, docs/decisions/0030-ten-times-the-data.md, Offers by their own place). Locked the other way
 * round, a driver handing back such an order while the address is deleted would deadlock. Run it in a
 * transaction.
 */
export async function deleteAddressOfUser(
  db: Db,
  userId: string,
  id: string,
): Promise<AddressRow | undefined> {
  await db
    .select({ id: orders.id })
    .from(orders)
    .where(eq(orders.pickupAddressId, id))
    .orderBy(asc(orders.id))
    .for('no key update');
  const rows = await db
    .delete(addresses)
    .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
    .returning();
  return rows[0];
}

/** Clears the primary flag of the user's other addresses (first half of a primary switch). */
export async function unsetOtherPrimaries(db: Db, userId: string, keepId: string): Promise<void> {
  await db
    .update(addresses)
    .set({ isPrimary: false, updatedAt: new Date() })
    .where(and(eq(addresses.userId, userId), eq(addresses.isPrimary, true), ne(addresses.id, keepId)));
}

export async function markPrimary(db: Db, userId: string, id: string): Promise<AddressRow | undefined> {
  const rows = await db
    .update(addresses)
    .set({ isPrimary: true, updatedAt: new Date() })
    .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
    .returning();
  return rows[0];
}

/** Makes the user's newest address primary (after the primary was deleted); none left is fine. */
export async function promoteNewestAddress(db: Db, userId: string): Promise<void> {
  const newest = db
    .select({ id: addresses.id })
    .from(addresses)
    .where(eq(addresses.userId, userId))
    .orderBy(desc(addresses.createdAt), desc(addresses.id))
    .limit(1);
  await db
    .update(addresses)
    .set({ isPrimary: true, updatedAt: new Date() })
    .where(and(eq(addresses.userId, userId), sql`${addresses.id} = (${newest})`));
}

/** The primary address of a user holding the seller role (granted roles, decision 0004). */
export async function findPrimaryAddressOfSeller(db: Db, sellerId: string): Promise<AddressRow | undefined> {
  const rows = await db
    .select({ address: addresses })
    .from(addresses)
    .innerJoin(users, eq(users.id, addresses.userId))
    .where(
      and(eq(addresses.userId, sellerId), eq(addresses.isPrimary, true), sql`'seller' = any(${users.roles})`),
    )
    .limit(1);
  return rows[0]?.address;
}
