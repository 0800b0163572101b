import { z } from 'zod';
import { isFulfilled, type OrderStatus } from './order-status';
import { idSchema } from './users';
import { visibleText } from './visible-text-schema';

/**
 * Reviews (docs/rules/selling.md, Reviews and messages): who may review whom on an order, the
 * submission and the answers. Pure, so the server decides with it and the browser explains with it.
 */

/** The capacities in which people review each other on an order (admins do not review). */
export const REVIEW_PARTIES = ['buyer', 'seller', 'driver'] as const;
export const reviewPartySchema = z.enum(REVIEW_PARTIES);
export type ReviewParty = z.infer<typeof reviewPartySchema>;

/**
 * The allowed pairs: buyer and seller, buyer and driver, seller and driver, each way. A driver
 * exists on an order only when a driver delivered it, so the driver's pairs exist only then.
 */
export const REVIEW_PAIRS: Readonly<Record<ReviewParty, readonly ReviewParty[]>> = {
  buyer: ['seller', 'driver'],
  seller: ['buyer', 'driver'],
  driver: ['buyer', 'seller'],
};

export const RATING_MIN = 1;
export const RATING_MAX = 5;
export const REVIEW_COMMENT_MAX_LENGTH = 1000;

export const RATING_REQUIRED = 'Please select a rating';
export const RATING_AT_LEAST_ONE_STAR = 'You must select at least 1 star';
export const RATING_WHOLE_NUMBER = 'Rating must be a whole number from 1 to 5';
export const REVIEWS_NOT_OPEN = 'Reviews open once the order is delivered or completed.';

export interface ReviewableOrder {
  status: OrderStatus;
  buyerId: string;
  sellerId: string;
  driverId: string | null;
}

/** One review the reviewer may write on the order: whom, in which capacities. */
export interface ReviewPair {
  reviewerRole: ReviewParty;
  revieweeId: string;
  revieweeRole: ReviewParty;
}

/** Reviews open once the order reached the buyer: delivered, or picked up (completed). */
export function isReviewable(status: OrderStatus): boolean {
  return isFulfilled(status);
}

function holderOf(order: ReviewableOrder, party: ReviewParty): string | null {
  if (party === 'buyer') return order.buyerId;
  if (party === 'seller') return order.sellerId;
  return order.driverId;
}

/**
 * Every review `reviewerId` may write on this order, whether written already or not: none before
 * the order is delivered or completed, none for someone who is not its buyer, seller or driver,
 * never of oneself, and one per reviewee (a person holding two capacities is reviewed once).
 */
export function reviewPairsFor(order: ReviewableOrder, reviewerId: string): ReviewPair[] {
  if (!isReviewable(order.status)) return [];
  const pairs: ReviewPair[] = [];
  for (const reviewerRole of REVIEW_PARTIES) {
    if (holderOf(order, reviewerRole) !== reviewerId) continue;
    for (const revieweeRole of REVIEW_PAIRS[reviewerRole]) {
      const revieweeId = holderOf(order, revieweeRole);
      if (revieweeId === null || revieweeId === reviewerId) continue;
      if (pairs.some((pair) => pair.revieweeId === revieweeId)) continue;
      pairs.push({ reviewerRole, revieweeId, revieweeRole });
    }
  }
  return pairs;
}

/** The reviews still to write: the allowed ones minus the reviewees already reviewed on this order. */
export function remainingReviewPairs(
  order: ReviewableOrder,
  reviewerId: string,
  reviewedIds: Iterable<string>,
): ReviewPair[] {
  const done = new Set(reviewedIds);
  return reviewPairsFor(order, reviewerId).filter((pair) => !done.has(pair.revieweeId));
}

/** POST /api/reviews (the spec's submission: orderId, revieweeId, revieweeRole, reviewerRole, rating, comment). */
export const reviewBodySchema = z.strictObject({
  orderId: idSchema,
  revieweeId: idSchema,
  revieweeRole: reviewPartySchema,
  reviewerRole: reviewPartySchema,
  rating: z
    .number({ error: RATING_WHOLE_NUMBER })
    .int(RATING_WHOLE_NUMBER)
    .min(RATING_MIN, RATING_WHOLE_NUMBER)
    .max(RATING_MAX, RATING_WHOLE_NUMBER),
  /**
   * Optional; trimmed, and an empty comment (invisible characters only included) is no comment
   * (docs/rules/running.md, Bad input and failure).
   */
  comment: visibleText(
    z
      .string()
      .trim()
      .max(REVIEW_COMMENT_MAX_LENGTH, `A comment has at most ${REVIEW_COMMENT_MAX_LENGTH} characters`),
  )
    .nullish()
    .transform((text) => (text ? text : null)),
});
export type ReviewBody = z.input<typeof reviewBodySchema>;

/** A review as anyone may read it on a profile (never the order it was written on). */
export const reviewSchema = z.object({
  id: z.string(),
  rating: z.number().int(),
  comment: z.string().nullable(),
  createdAt: z.string(),
  reviewerId: z.string(),
  /** "first last", otherwise the capitalised role word of the reviewer on that order. */
  reviewerName: z.string(),
  reviewerRole: reviewPartySchema,
  revieweeId: z.string(),
  revieweeRole: reviewPartySchema,
});
export type Review = z.infer<typeof reviewSchema>;

/** The newest reviews a profile lists; the average and the count are over all of them. */
export const USER_REVIEWS_LISTED = 50;

/** GET /api/reviews/user/{id}: the summary and the newest reviews of one user. */
export const userReviewsSchema = z.object({
  /** Average rating with one decimal; null without reviews. */
  averageRating: z.number().nullable(),
  totalReviews: z.number().int(),
  reviews: z.array(reviewSchema),
});
export type UserReviews = z.infer<typeof userReviewsSchema>;

/** `?as=seller`: only the reviews the user got in that capacity (the product page's seller rating). */
export const userReviewsQuerySchema = z.strictObject({ as: reviewPartySchema.optional() });

/** Someone the caller may still review on the order (the spec's review prompt: userId, name, role). */
export const reviewPromptSchema = z.object({
  userId: z.string(),
  name: z.string(),
  role: reviewPartySchema,
  /** The caller's own capacity, sent back as reviewerRole. */
  reviewerRole: reviewPartySchema,
});
export type ReviewPrompt = z.infer<typeof reviewPromptSchema>;

/** A review with the order it was written on, for the order's own people (and POST's answer). */
export const orderReviewSchema = reviewSchema.extend({ orderId: z.string() });
export type OrderReview = z.infer<typeof orderReviewSchema>;

/** GET /api/reviews/order/{id}: the order's reviews, and whom the caller may still review on it. */
export const orderReviewsSchema = z.object({
  reviews: z.array(orderReviewSchema),
  prompts: z.array(reviewPromptSchema),
});
export type OrderReviews = z.infer<typeof orderReviewsSchema>;
