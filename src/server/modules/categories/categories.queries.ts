import { and, count, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { categories, products } from '../../db/schema';

export type CategoryRow = typeof categories.$inferSelect;

/** Names are unique whatever their case (the unique index is on lower(name)). */
export async function findCategoryByName(
  db: Db,
  name: string,
  exceptId?: string,
): Promise<CategoryRow | undefined> {
  const [row] = await db
    .select()
    .from(categories)
    .where(
      and(
        sql`lower(${categories.name}) = lower(${name})`,
        exceptId === undefined ? undefined : ne(categories.id, exceptId),
      ),
    )
    .limit(1);
  return row;
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
