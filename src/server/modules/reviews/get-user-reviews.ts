import type { Db } from '../../db/client';
import { notFound } from '../../platform/errors';
import { USER_REVIEWS_LISTED, type ReviewParty, type UserReviews } from '../../../domain/reviews';
import { toReview } from './review-views';
import { listReviewsOf, summariseReviewsOf, userExists } from './reviews.queries';

/**
 * GET /api/reviews/user/{id}, public like the profile it belongs to (docs/rules/selling.md, Reviews
 * and messages): the average rating with one decimal, how many reviews, and the newest 50 with
 * their reviewer's name, never the order they were written on. `as` narrows them to one capacity
 * (the product page shows the seller's rating as a seller, like the cards).
 */
export async function getUserReviews(
  db: Db,
  userId: string,
  as: ReviewParty | undefined,
): Promise<UserReviews> {
  if (!(await userExists(db, userId))) throw notFound('User not found');
  const [summary, rows] = await Promise.all([
    summariseReviewsOf(db, userId, as),
    listReviewsOf(db, userId, as, USER_REVIEWS_LISTED),
  ]);
  return {
    averageRating: summary.average === null ? null : Number(summary.average),
    totalReviews: summary.total,
    reviews: rows.map(toReview),
  };
}
