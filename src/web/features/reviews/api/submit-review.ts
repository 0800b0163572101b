import { useMutation, useQueryClient } from '@tanstack/react-query';
import { reviewSchema, type ReviewBody } from '@domain/reviews';
import { apiSend } from '../../../lib/api-client';
import { ORDER_REVIEWS_KEY, USER_REVIEWS_KEY } from './review-keys';

/** POST /api/reviews {orderId, revieweeId, revieweeRole, reviewerRole, rating, comment}. */
export async function submitReview(body: ReviewBody) {
  return reviewSchema.parse(await apiSend('POST', '/api/reviews', body));
}

/** A review changes the order's prompts and the reviewee's profile and rating. */
export function useSubmitReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitReview,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ORDER_REVIEWS_KEY }),
        queryClient.invalidateQueries({ queryKey: USER_REVIEWS_KEY }),
      ]),
  });
}
