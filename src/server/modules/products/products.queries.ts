import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { builtOnce } from '../../db/built-once';
import type { Db } from '../../db/client';
import { categories, productImages, products } from '../../db/schema';

export type ProductRow = typeof products.$inferSelect;
export type ProductImageRow = typeof productImages.$inferSelect;

/** The category's stored name, matched without regard to case (names are unique that way). */
export async function findCategoryName(db: Db, name: string): Promise<string | undefined> {
  const [row] = await db
    .select({ name: categories.name })
    .from(categories)
    .where(sql`lower(${categories.name}) = lower(${name})`)
    .limit(1);
  return row?.name;
}

export async function findProduct(db: Db, id: string): Promise<ProductRow | undefined> {
  const [row] = await db.select().from(products).where(eq(products.id, id)).limit(1);
  return row;
}

/**
 * The product row locked for the rest of the transaction: two image calls on the same product wait
 * for each other, so together they cannot pass the 10-image limit.
 */
export async function lockProduct(tx: Db, id: string): Promise<ProductRow | undefined> {
  const [row] = await tx.select().from(products).where(eq(products.id, id)).for('update').limit(1);
  return row;
}

export async function insertProduct(db: Db, values: typeof products.$inferInsert): Promise<ProductRow> {
  const [row] = await db.insert(products).values(values).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** Changes a product that is still available; undefined when it is not (cancelled meanwhile). */
export async function updateAvailableProduct(
  db: Db,
  id: string,
  values: Partial<typeof products.$inferInsert>,
): Promise<ProductRow | undefined> {
  const [row] = await db
    .update(products)
    .set(values)
    .where(and(eq(products.id, id), eq(products.available, true)))
    .returning();
  return row;
}

/** Cancels an available product; undefined when it was not available (already cancelled). */
export async function cancelAvailableProduct(db: Db, id: string, now: Date): Promise<ProductRow | undefined> {
  const [row] = await db
    .update(products)
    .set({ available: false, updatedAt: now })
    .where(and(eq(products.id, id), eq(products.available, true)))
    .returning();
  return row;
}

/**
 * A seller's products, every status: the available ones newest first, then the cancelled ones newest
 * first (docs/rules/selling.md, Seller listings). Found through products_seller_created_idx; one
 * seller's rows are few enough to sort.
 */
export async function listProductsOfSeller(db: Db, sellerId: string): Promise<ProductRow[]> {
  return db
    .select()
    .from(products)
    .where(eq(products.sellerId, sellerId))
    .orderBy(desc(products.available), desc(products.createdAt), asc(products.id));
}

/** The extra images of these products in display order (the main image is products.image_url). */
export async function listExtraImages(db: Db, productIds: string[]): Promise<ProductImageRow[]> {
  if (productIds.length === 0) return [];
  return db
    .select()
    .from(productImages)
    .where(inArray(productImages.productId, productIds))
    .orderBy(asc(productImages.displayOrder), asc(productImages.createdAt), asc(productImages.id));
}

/** Replaces the extra images of a product with these, in this order. */
export async function replaceExtraImages(
  tx: Db,
  productId: string,
  imageUrls: readonly string[],
  now: Date,
): Promise<void> {
  await tx.delete(productImages).where(eq(productImages.productId, productId));
  if (imageUrls.length === 0) return;
  await tx.insert(productImages).values(
    imageUrls.map((imageUrl, index) => ({
      productId,
      imageUrl,
      // The main image is position 0; the extras follow it.
      displayOrder: index + 1,
      createdAt: now,
    })),
  );
}

export async function insertExtraImage(
  tx: Db,
  values: { productId: string; imageUrl: string; displayOrder: number; createdAt: Date },
): Promise<void> {
  await tx.insert(productImages).values(values);
}

export async function setMainImage(tx: Db, productId: string, imageUrl: string | null, now: Date) {
  await tx.update(products).set({ imageUrl, updatedAt: now }).where(eq(products.id, productId));
}

export async function touchProduct(tx: Db, productId: string, now: Date) {
  await tx.update(products).set({ updatedAt: now }).where(eq(products.id, productId));
}

/**
 * Takes the stock of every line at once (docs/rules/catalog-and-orders.md, Checkout and orders): a product's
 * row changes only if enough is left and it is still on sale, so two buyers racing for the last
 * unit cannot both get it. Answers the ids of the products taken; a line missing from the answer
 * was short, and the caller rolls the transaction back. Several products are first locked in the
 * order of their ids, so two checkouts sharing products never wait on each other in a circle.
 */
export async function takeStockOfLines(
  db: Db,
  lines: readonly { productId: string; quantity: number }[],
): Promise<Set<string>> {
  if (lines.length === 0) return new Set();
  const ids = lines.map((line) => line.productId);
  if (lines.length > 1) await lockProducts(db).execute({ ids });
  const rows = await takeStock(db).execute({
    ids,
    quantities: lines.map((line) => line.quantity),
    now: new Date(),
  });
  return new Set(rows.map((row) => row.id));
}

/**
 * Built once, as the two statements of every paid checkout that take its stock
 * (docs/decisions/0028-checkout-throughput.md, Statements built once): the lines are two
 * arrays, ids and quantities, in the same order.
 */
const lockProducts = builtOnce((db) =>
  db
    .select({ id: products.id })
    .from(products)
    .where(sql`${products.id} = any(${sql.placeholder('ids')}::uuid[])`)
    .orderBy(asc(products.id))
    .for('update')
    .prepare(''),
);

const takeStock = builtOnce((db) =>
  db
    .update(products)
    .set({
      stock: sql`${products.stock} - wanted.quantity`,
      updatedAt: sql`${sql.placeholder('now')}::timestamptz`,
    })
    .from(
      sql`unnest(${sql.placeholder('ids')}::uuid[], ${sql.placeholder('quantities')}::int[]) as wanted(product_id, quantity)`,
    )
    .where(
      and(
        sql`${products.id} = wanted.product_id`,
        sql`${products.stock} >= wanted.quantity`,
        eq(products.onSale, true),
      ),
    )
    .returning({ id: products.id })
    .prepare(''),
);

export async function restoreStock(db: Db, productId: string, quantity: number): Promise<void> {
  await db
    .update(products)
    .set({ stock: sql`${products.stock} + ${quantity}`, updatedAt: new Date() })
    .where(eq(products.id, productId));
}

/** Products store the category's name: a rename renames it on every product of that category. */
export async function renameCategoryOfProducts(db: Db, from: string, to: string): Promise<number> {
  const rows = await db
    .update(products)
    .set({ category: to })
    .where(eq(products.category, from))
    .returning({ id: products.id });
  return rows.length;
}

/** An admin hides a product from the catalog (a time) or shows it again (null). */
export async function setProductHiddenAt(
  tx: Db,
  id: string,
  hiddenAt: Date | null,
  now: Date,
): Promise<ProductRow | undefined> {
  const [row] = await tx
    .update(products)
    .set({ hiddenAt, updatedAt: now })
    .where(eq(products.id, id))
    .returning();
  return row;
}

/** Hides or shows every product of a seller who may (not) sell now; answers how many changed. */
export async function setSellerHidden(tx: Db, sellerId: string, hidden: boolean, now: Date): Promise<number> {
  const rows = await tx
    .update(products)
    .set({ sellerHidden: hidden, updatedAt: now })
    .where(and(eq(products.sellerId, sellerId), sql`${products.sellerHidden} <> ${hidden}`))
    .returning({ id: products.id });
  return rows.length;
}
