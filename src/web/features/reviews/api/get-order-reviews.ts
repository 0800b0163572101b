import { useQuery } from '@tanstack/react-query';
import { orderReviewsSchema, type OrderReviews } from '@domain/reviews';
import { apiGet } from '../../../lib/api-client';
import { ORDER_REVIEWS_KEY } from './review-keys';

/**
 * GET /api/reviews/order/{id}: the order's reviews and whom the viewer may still review on it,
 * which decides the review prompts (docs/rules/selling.md, Reviews and messages).
 */
export async function fetchOrderReviews(orderId: string, signal?: AbortSignal): Promise<OrderReviews> {
  return orderReviewsSchema.parse(await apiGet(`/api/reviews/order/${encodeURIComponent(orderId)}`, signal));
}

/** Asked again when the order's status changes (`status` is part of the key). */
export function useOrderReviews(orderId: string, status: string, enabled: boolean) {
  return useQuery({
    queryKey: [...ORDER_REVIEWS_KEY, orderId, status] as const,
    queryFn: ({ signal }) => fetchOrderReviews(orderId, signal),
    enabled,
  });
}
