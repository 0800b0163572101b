import { useQuery } from '@tanstack/react-query';
import { userReviewsSchema, type ReviewParty, type UserReviews } from '@domain/reviews';
import { apiGet } from '../../../lib/api-client';
import { USER_REVIEWS_KEY } from './review-keys';

/**
 * GET /api/reviews/user/{id}[?as=seller]: the user's average rating, number of reviews and newest
 * reviews (public, like the profile).
 */
export async function fetchUserReviews(
  userId: string,
  as: ReviewParty | undefined,
  signal?: AbortSignal,
): Promise<UserReviews> {
  const query = as ? `?as=${as}` : '';
  return userReviewsSchema.parse(
    await apiGet(`/api/reviews/user/${encodeURIComponent(userId)}${query}`, signal),
  );
}

export function useUserReviews(userId: string | null, as?: ReviewParty) {
  return useQuery({
    queryKey: [...USER_REVIEWS_KEY, userId ?? '', as ?? 'all'] as const,
    queryFn: ({ signal }) => fetchUserReviews(userId ?? '', as, signal),
    enabled: userId !== null,
  });
}
