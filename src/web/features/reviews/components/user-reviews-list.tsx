import { capitalise } from '@domain/roles';
import { formatDateTime, formatOneDecimal } from '../../../lib/format';
import { useUserReviews } from '../api/get-user-reviews';
import { StarsShown } from './star-rating';

/**
 * A user's reviews in their profile (docs/rules/screens-buyer.md, Order screens; docs/rules/selling.md,
 * Reviews and messages): the average with one decimal and the count, then the newest reviews, or "No reviews
 * yet".
 */
export function UserReviewsList({ userId }: { userId: string }) {
  const reviews = useUserReviews(userId);
  if (reviews.isLoading)
    return (
      <p role="status" className="text-sm text-muted-foreground">
        Loading reviews...
      </p>
    );
  if (reviews.isError || !reviews.data)
    return (
      <p role="alert" className="text-sm text-destructive">
        Reviews could not be loaded.
      </p>
    );
  const { averageRating, totalReviews, reviews: list } = reviews.data;
  return (
    <section aria-labelledby="profile-reviews-heading" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="profile-reviews-heading" className="font-semibold">
          Reviews
        </h3>
        {averageRating !== null ? (
          <p className="flex items-center gap-2 text-sm" data-testid="text-profile-rating">
            <StarsShown rating={averageRating} />
            <span>
              {formatOneDecimal(averageRating)} ({totalReviews} {totalReviews === 1 ? 'review' : 'reviews'})
            </span>
          </p>
        ) : null}
      </div>
      {list.length === 0 ? (
        <p className="text-sm text-muted-foreground">No reviews yet</p>
      ) : (
        // Scrolls past a few reviews: focusable, so a keyboard can scroll it too (WCAG 2.1.1).
        <ul
          aria-labelledby="profile-reviews-heading"
          tabIndex={0}
          className="flex max-h-72 flex-col gap-3 overflow-y-auto rounded-md focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          {list.map((review) => (
            <li
              key={review.id}
              className="flex flex-col gap-1 rounded-md border p-3 text-sm"
              data-testid="profile-review"
            >
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="flex items-center gap-2">
                  <StarsShown rating={review.rating} />
                  <span className="sr-only">Rated </span>
                  <span className="font-medium" data-testid="text-review-rating">
                    {review.rating}/5
                  </span>
                </span>
                <span className="text-xs text-muted-foreground">{formatDateTime(review.createdAt)}</span>
              </div>
              {review.comment ? <p className="whitespace-pre-wrap break-words">{review.comment}</p> : null}
              <p className="text-xs text-muted-foreground">
                {review.reviewerName} · {capitalise(review.reviewerRole)}, about them as {review.revieweeRole}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
