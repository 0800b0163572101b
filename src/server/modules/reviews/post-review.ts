import { findOrderParties } from '../orders/order-records';
import type { Db } from '../../db/client';
import { badRequest, conflict, notFound } from '../../platform/errors';
import { canViewOrder } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import { orderStatusSchema } from '../../../domain/order-status';
import { ORDER_NOT_FOUND } from '../../../domain/orders';
import {
  isReviewable,
  reviewPairsFor,
  REVIEWS_NOT_OPEN,
  type OrderReview,
  type ReviewParty,
} from '../../../domain/reviews';
import { toReview } from './review-views';
import { insertReviewOnce } from './reviews.queries';

export interface ReviewSubmission {
  orderId: string;
  revieweeId: string;
  revieweeRole: ReviewParty;
  reviewerRole: ReviewParty;
  rating: number;
  comment: string | null;
}

const NOT_A_PAIR = 'You cannot review this person for this order.';

/**
 * POST /api/reviews (docs/rules/selling.md, Reviews and messages): a party of a delivered or
 * completed order reviews another party in an allowed pair, once per order, reviewer and reviewee;
 * a whole-number rating 1 to 5 and an optional comment. 404 for someone who may not see the order,
 * 409 before the order is finished or for a second review, 400 for anyone else to review.
 */
export async function postReview(db: Db, actor: Actor, body: ReviewSubmission): Promise<OrderReview> {
  const found = await findOrderParties(db, body.orderId);
  if (!found || !canViewOrder(actor, found)) throw notFound(ORDER_NOT_FOUND);
  const order = { ...found, status: orderStatusSchema.parse(found.status) };
  if (!isReviewable(order.status)) throw conflict(REVIEWS_NOT_OPEN);
  const pair = reviewPairsFor(order, actor.id).find((candidate) => candidate.revieweeId === body.revieweeId);
  if (!pair) throw badRequest(`Invalid request. revieweeId: ${NOT_A_PAIR}`, { revieweeId: NOT_A_PAIR });
  const fields: Record<string, string> = {};
  if (pair.reviewerRole !== body.reviewerRole)
    fields.reviewerRole = `You are the ${pair.reviewerRole} of this order`;
  if (pair.revieweeRole !== body.revieweeRole)
    fields.revieweeRole = `This person is the ${pair.revieweeRole} of this order`;
  if (Object.keys(fields).length > 0) {
    const summary = Object.entries(fields)
      .map(([name, message]) => `${name}: ${message}`)
      .join('; ');
    throw badRequest(`Invalid request. ${summary}`, fields);
  }
  const row = await insertReviewOnce(db, {
    orderId: order.id,
    reviewerId: actor.id,
    revieweeId: pair.revieweeId,
    reviewerRole: pair.reviewerRole,
    revieweeRole: pair.revieweeRole,
    rating: body.rating,
    comment: body.comment,
  });
  if (!row) throw conflict(`You have already reviewed the ${pair.revieweeRole} of this order.`);
  return {
    ...toReview({ review: row, reviewerFirstName: actor.firstName, reviewerLastName: actor.lastName }),
    orderId: row.orderId,
  };
}
