import { useState, type FormEvent } from 'react';
import { Star } from 'lucide-react';
import { isFulfilled } from '@domain/order-status';
import { capitalise } from '@domain/roles';
import {
  RATING_AT_LEAST_ONE_STAR,
  RATING_REQUIRED,
  REVIEW_COMMENT_MAX_LENGTH,
  type ReviewPrompt,
} from '@domain/reviews';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/use-toast';
import { statusOf } from '../../../lib/api-client';
import { toastMutationError } from '../../../lib/mutation-errors';
import { useQueryClient } from '@tanstack/react-query';
import type { OrderReview } from '@domain/reviews';
import { useOrderReviews } from '../api/get-order-reviews';
import { ORDER_REVIEWS_KEY } from '../api/review-keys';
import { useSubmitReview } from '../api/submit-review';
import { StarRatingInput, StarsShown } from './star-rating';

/** The review failure toast: the server's message, otherwise this (docs/rules/selling.md, Reviews and messages). */
export const SUBMIT_REVIEW_FAILED = 'Failed to submit review';

function ReviewForm({ orderId, prompt }: { orderId: string; prompt: ReviewPrompt }) {
  const [rating, setRating] = useState(0);
  const [comment, setComment] = useState('');
  const submit = useSubmitReview();
  const queryClient = useQueryClient();
  const role = capitalise(prompt.role);
  const commentId = `review-comment-${orderId}-${prompt.userId}`;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (rating < 1) {
      toast({ title: RATING_REQUIRED, description: RATING_AT_LEAST_ONE_STAR, variant: 'destructive' });
      return;
    }
    submit.mutate(
      {
        orderId,
        revieweeId: prompt.userId,
        revieweeRole: prompt.role,
        reviewerRole: prompt.reviewerRole,
        rating,
        comment: comment.trim() || undefined,
      },
      {
        onSuccess: () =>
          toast({ title: 'Review submitted', description: `Thank you for reviewing ${prompt.name}.` }),
        onError: (error) => {
          toastMutationError(error, SUBMIT_REVIEW_FAILED, { preferServerMessage: true });
          // A 409: this person was reviewed meanwhile (another tab, another device). The order's
          // reviews are read again, so the form goes and the review shows in its place.
          if (statusOf(error) === 409)
            void queryClient.invalidateQueries({ queryKey: [...ORDER_REVIEWS_KEY, orderId] });
        },
      },
    );
  };

  return (
    <form
      onSubmit={onSubmit}
      className="flex flex-col gap-3 rounded-lg border p-4"
      aria-label={`Review of ${prompt.name}, ${role}`}
    >
      <p className="font-medium">
        {prompt.name} <span className="font-normal text-muted-foreground">· {role}</span>
      </p>
      <StarRatingInput value={rating} onChange={setRating} label={`Rating for ${prompt.name}`} />
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={commentId}>Comment (optional)</Label>
        <Textarea
          id={commentId}
          value={comment}
          onChange={(event) => setComment(event.target.value)}
          maxLength={REVIEW_COMMENT_MAX_LENGTH}
          rows={2}
          className="min-h-16"
          placeholder={`How was it to deal with this ${prompt.role}?`}
        />
      </div>
      <Button type="submit" size="sm" className="self-start" disabled={submit.isPending}>
        {submit.isPending ? 'Submitting...' : 'Submit Review'}
      </Button>
    </form>
  );
}

/** The reviews the viewer wrote on this order: what became of each form. */
function GivenReviews({ reviews }: { reviews: OrderReview[] }) {
  return (
    <ul className="flex flex-col gap-2" aria-label="Your reviews">
      {reviews.map((review) => (
        <li
          key={review.id}
          className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm"
          data-testid={`given-review-${review.revieweeRole}`}
        >
          <span>
            You reviewed the {review.revieweeRole}
            <span className="sr-only">: {review.rating} of 5 stars</span>
          </span>
          <StarsShown rating={review.rating} />
          {review.comment ? <span className="text-muted-foreground">“{review.comment}”</span> : null}
        </li>
      ))}
    </ul>
  );
}

/**
 * "Leave a Review" (docs/rules/selling.md, Reviews and messages; the spec's test id review-prompts):
 * on a delivered or completed order, one form per person the viewer may still review; hidden once
 * none remain. The server decides who remains. The viewer's own reviews of the order show under the
 * forms, or on their own once none remain.
 */
export function ReviewPrompts({
  orderId,
  status,
  viewerId,
}: {
  orderId: string;
  status: string;
  viewerId: string;
}) {
  const isFinished = isFulfilled(status);
  const reviews = useOrderReviews(orderId, status, isFinished);
  const prompts = reviews.data?.prompts ?? [];
  const given = (reviews.data?.reviews ?? []).filter((review) => review.reviewerId === viewerId);
  if (!isFinished) return null;
  if (prompts.length === 0) {
    if (given.length === 0) return null;
    return (
      <Card data-testid="card-given-reviews">
        <CardHeader className="pb-4">
          <CardTitle as="h2" className="flex items-center gap-2">
            <Star className="size-5" aria-hidden="true" />
            Your Reviews
          </CardTitle>
          <CardDescription>Thank you: everyone on this order has your review.</CardDescription>
        </CardHeader>
        <CardContent>
          <GivenReviews reviews={given} />
        </CardContent>
      </Card>
    );
  }
  return (
    <Card data-testid="review-prompts">
      <CardHeader className="pb-4">
        <CardTitle as="h2" className="flex items-center gap-2">
          <Star className="size-5" aria-hidden="true" />
          Leave a Review
        </CardTitle>
        <CardDescription>
          Your feedback helps maintain a great community. Please rate your experience with this order.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4 md:grid-cols-2">
        {prompts.map((prompt) => (
          <ReviewForm key={prompt.userId} orderId={orderId} prompt={prompt} />
        ))}
        {given.length > 0 ? (
          <div className="md:col-span-2">
            <GivenReviews reviews={given} />
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
