import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { reviews, users } from '../../db/schema';
import type { ReviewParty } from '../../../domain/reviews';

export type ReviewRow = typeof reviews.$inferSelect;

const reviewer = alias(users, 'reviewer');

export interface ReviewWithReviewer {
  review: ReviewRow;
  reviewerFirstName: string | null;
  reviewerLastName: string | null;
}

function selectReviews(db: Db) {
  return db
    .select({
      review: reviews,
      reviewerFirstName: reviewer.firstName,
      reviewerLastName: reviewer.lastName,
    })
    .from(reviews)
    .innerJoin(reviewer, eq(reviewer.id, reviews.reviewerId));
}

export async function listReviewsOfOrder(db: Db, orderId: string): Promise<ReviewWithReviewer[]> {
  return selectReviews(db)
    .where(eq(reviews.orderId, orderId))
    .orderBy(desc(reviews.createdAt), desc(reviews.id));
}

/** Inserts unless this reviewer already reviewed this reviewee on this order (then undefined). */
export async function insertReviewOnce(
  db: Db,
  values: typeof reviews.$inferInsert,
): Promise<ReviewRow | undefined> {
  const rows = await db
    .insert(reviews)
    .values(values)
    .onConflictDoNothing({ target: [reviews.orderId, reviews.reviewerId, reviews.revieweeId] })
    .returning();
  return rows[0];
}

const ofReviewee = (userId: string, as: ReviewParty | undefined): SQL | undefined =>
  and(eq(reviews.revieweeId, userId), as ? eq(reviews.revieweeRole, as) : undefined);

/**
 * The average (one decimal, rounded in SQL numeric like the cards' seller rating) and the number
 * of the user's reviews, in one capacity or all.
 */
export async function summariseReviewsOf(
  db: Db,
  userId: string,
  as: ReviewParty | undefined,
): Promise<{ average: string | null; total: number }> {
  const [row] = await db
    .select({
      average: sql<string | null>`round(avg(${reviews.rating}), 1)::text`,
      total: sql<number>`count(*)::int`,
    })
    .from(reviews)
    .where(ofReviewee(userId, as));
  return { average: row?.average ?? null, total: row?.total ?? 0 };
}

export async function listReviewsOf(
  db: Db,
  userId: string,
  as: ReviewParty | undefined,
  limit: number,
): Promise<ReviewWithReviewer[]> {
  return selectReviews(db)
    .where(ofReviewee(userId, as))
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(limit);
}

export async function findNames(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(inArray(users.id, [...ids]));
}

export async function userExists(db: Db, id: string): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.id, id)).limit(1);
  return rows.length > 0;
}
