import { count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { categories, products } from '../../db/schema';

export type CategoryRow = typeof categories.$inferSelect;

/**
 * Held until the transaction ends, so that creates and renames check names one at a time: the
 * unique index on lower(name) stops an exact duplicate, not a look-alike (docs/rules/running.md,
 * Bad input and failure). Its key is its own: nothing else in the app takes an advisory lock.
 */
const CATEGORY_NAMES_LOCK = 7_310_001;

export async function lockCategoryNames(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${CATEGORY_NAMES_LOCK}::bigint)`);
}

/** Every category's id and name: they are few, managed by admins. */
export async function listCategoryNames(db: Db): Promise<Pick<CategoryRow, 'id' | 'name'>[]> {
  return db.select({ id: categories.id, name: categories.name }).from(categories);
}

/** The row, locked until the transaction ends, so a rename and a delete of it queue up. */
export async function findCategoryForUpdate(tx: Db, id: string): Promise<CategoryRow | undefined> {
  const [row] = await tx.select().from(categories).where(eq(categories.id, id)).limit(1).for('update');
  return row;
}

export async function insertCategory(db: Db, name: string, now: Date): Promise<CategoryRow> {
  const [row] = await db.insert(categories).values({ name, createdAt: now, updatedAt: now }).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function renameCategory(db: Db, id: string, name: string, now: Date): Promise<CategoryRow> {
  const [row] = await db
    .update(categories)
    .set({ name, updatedAt: now })
    .where(eq(categories.id, id))
    .returning();
  if (!row) throw new Error('update returned no row');
  return row;
}

export async function countProductsInCategory(db: Db, name: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(products).where(eq(products.category, name));
  return row?.n ?? 0;
}

export async function deleteCategory(db: Db, id: string): Promise<void> {
  await db.delete(categories).where(eq(categories.id, id));
}
