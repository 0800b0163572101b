/** The query keys of reviews. */
export const ORDER_REVIEWS_KEY = ['/api/reviews/order'] as const;
export const USER_REVIEWS_KEY = ['/api/reviews/user'] as const;
