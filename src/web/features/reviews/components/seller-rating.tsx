import { Star } from 'lucide-react';
import { formatOneDecimal } from '../../../lib/format';
import { useUserReviews } from '../api/get-user-reviews';
import { StarsShown } from './star-rating';

/**
 * The seller's real rating on the product page, where the specification showed a placeholder
 * "4.5 (24 reviews)": the average of the seller's reviews as a seller, one decimal, and how many
 * (the same reviews as the cards' rating; docs/rules/screens-buyer.md, Catalog screens).
 */
export function SellerRating({ sellerId }: { sellerId: string }) {
  const reviews = useUserReviews(sellerId, 'seller');
  const summary = reviews.data;
  return (
    <p className="flex items-center gap-2 text-sm" data-testid="text-product-rating">
      {summary && summary.averageRating !== null ? (
        <>
          <StarsShown rating={summary.averageRating} />
          <span className="sr-only">Seller rated </span>
          <span className="text-muted-foreground">
            {formatOneDecimal(summary.averageRating)} ({summary.totalReviews}{' '}
            {summary.totalReviews === 1 ? 'review' : 'reviews'})
          </span>
        </>
      ) : (
        <>
          <Star className="size-4 text-muted-foreground" aria-hidden="true" />
          <span className="text-muted-foreground">
            {reviews.isLoading ? 'Loading rating...' : 'No reviews yet'}
          </span>
        </>
      )}
    </p>
  );
}
