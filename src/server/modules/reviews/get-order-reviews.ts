import { findOrderParties } from '../orders/order-records';
import type { Db } from '../../db/client';
import { notFound } from '../../platform/errors';
import { canViewOrder } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import { orderStatusSchema } from '../../../domain/order-status';
import { ORDER_NOT_FOUND } from '../../../domain/orders';
import { displayName } from '../../../domain/roles';
import { remainingReviewPairs, type OrderReviews } from '../../../domain/reviews';
import { toReview } from './review-views';
import { findNames, listReviewsOfOrder } from './reviews.queries';

/**
 * GET /api/reviews/order/{id} (docs/rules/selling.md, Reviews and messages): the order's reviews and
 * the people the caller may still review on it, which drive the "Leave a Review" panel; an empty
 * `prompts` hides it. 404 for anyone who may not see the order.
 */
export async function getOrderReviews(db: Db, actor: Actor, orderId: string): Promise<OrderReviews> {
  const found = await findOrderParties(db, orderId);
  if (!found || !canViewOrder(actor, found)) throw notFound(ORDER_NOT_FOUND);
  const order = { ...found, status: orderStatusSchema.parse(found.status) };
  const rows = await listReviewsOfOrder(db, orderId);
  const given = rows.filter((row) => row.review.reviewerId === actor.id).map((row) => row.review.revieweeId);
  const pairs = remainingReviewPairs(order, actor.id, given);
  const names = new Map(
    (
      await findNames(
        db,
        pairs.map((pair) => pair.revieweeId),
      )
    ).map((u) => [u.id, u]),
  );
  return {
    reviews: rows.map((row) => ({ ...toReview(row), orderId: row.review.orderId })),
    prompts: pairs.map((pair) => {
      const person = names.get(pair.revieweeId);
      return {
        userId: pair.revieweeId,
        name: displayName({
          firstName: person?.firstName ?? null,
          lastName: person?.lastName ?? null,
          role: pair.revieweeRole,
        }),
        role: pair.revieweeRole,
        reviewerRole: pair.reviewerRole,
      };
    }),
  };
}
