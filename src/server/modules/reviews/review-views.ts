import { displayName } from '../../../domain/roles';
import { reviewPartySchema, type Review } from '../../../domain/reviews';
import type { ReviewWithReviewer } from './reviews.queries';

export function toReview({ review, reviewerFirstName, reviewerLastName }: ReviewWithReviewer): Review {
  const reviewerRole = reviewPartySchema.parse(review.reviewerRole);
  return {
    id: review.id,
    rating: review.rating,
    comment: review.comment,
    createdAt: review.createdAt.toISOString(),
    reviewerId: review.reviewerId,
    reviewerName: displayName({
      firstName: reviewerFirstName,
      lastName: reviewerLastName,
      role: reviewerRole,
    }),
    reviewerRole,
    revieweeId: review.revieweeId,
    revieweeRole: reviewPartySchema.parse(review.revieweeRole),
  };
}
