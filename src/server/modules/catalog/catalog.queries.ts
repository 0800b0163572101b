import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { addresses, categories, products, reviews, users } from '../../db/schema';
import type { ProductListQuery } from '../../../domain/catalog';

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listAvailableProducts(db: Db, query: ProductListQuery) {
  const sellerRating = db
    .select({
      revieweeId: reviews.revieweeId,
      rating: sql<string>`avg(${reviews.rating})`.as('rating'),
    })
    .from(reviews)
    .where(eq(reviews.revieweeRole, 'seller'))
    .groupBy(reviews.revieweeId)
    .as('seller_rating');
  const conditions = [eq(products.available, true)];
  if (query.search) conditions.push(sql`${products.name} ilike ${likePattern(query.search)}`);
  if (query.category && query.category !== 'All') conditions.push(eq(products.category, query.category));
  return db
    .select({
      product: products,
      sellerFirstName: users.firstName,
      sellerLastName: users.lastName,
      sellerRole: users.role,
      sellerRating: sellerRating.rating,
      sellerCity: addresses.city,
      sellerState: addresses.state,
    })
    .from(products)
    .innerJoin(users, eq(users.id, products.sellerId))
    .leftJoin(addresses, and(eq(addresses.userId, products.sellerId), eq(addresses.isPrimary, true)))
    .leftJoin(sellerRating, eq(sellerRating.revieweeId, products.sellerId))
    .where(and(...conditions))
    .orderBy(desc(products.createdAt), asc(products.id))
    .limit(query.limit)
    .offset(query.offset);
}

export async function listCategories(db: Db) {
  return db
    .select({ id: categories.id, name: categories.name })
    .from(categories)
    .orderBy(asc(categories.name));
}
