// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { OrderReviews, ReviewPrompt } from '@domain/reviews';
import { installDomStubs, jsonResponse, mockFetch, renderWithProviders } from '../../../test-support/render';
import { ReviewPrompts } from './review-prompts';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

const ORDER = '00000000-0000-4000-8000-0000000000a1';
const seller: ReviewPrompt = {
  userId: '00000000-0000-4000-8000-000000000002',
  name: 'Sol Seller',
  role: 'seller',
  reviewerRole: 'buyer',
};
const driver: ReviewPrompt = {
  userId: '00000000-0000-4000-8000-000000000003',
  name: 'Dee Driver',
  role: 'driver',
  reviewerRole: 'buyer',
};

/** The server's prompts: each review given removes its reviewee. */
function server(prompts: ReviewPrompt[]) {
  let remaining = [...prompts];
  const fetchMock = mockFetch((url, init) => {
    if (url === `/api/reviews/order/${ORDER}`)
      return jsonResponse({ reviews: [], prompts: remaining } satisfies OrderReviews);
    if (url === '/api/reviews' && init?.method === 'POST') {
      const body = JSON.parse(String(init.body)) as { revieweeId: string };
      remaining = remaining.filter((prompt) => prompt.userId !== body.revieweeId);
      return jsonResponse(
        {
          id: 'r1',
          rating: 5,
          comment: null,
          createdAt: '2026-11-23T16:00:00.000Z',
          reviewerId: 'me',
          reviewerName: 'Bea Buyer',
          reviewerRole: 'buyer',
          revieweeId: body.revieweeId,
          revieweeRole: 'seller',
          orderId: ORDER,
        },
        201,
      );
    }
    return undefined;
  });
  return { posts: () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST') };
}

describe('Leave a Review (docs/rules/selling.md, Reviews and messages)', () => {
  it('shows one form per counterpart left on a finished order, and disappears once all are given', async () => {
    const { posts } = server([seller, driver]);
    renderWithProviders(<ReviewPrompts orderId={ORDER} status="delivered" viewerId="me" />);
    const panel = await screen.findByTestId('review-prompts');
    expect(within(panel).getByRole('heading', { name: 'Leave a Review' })).toBeVisible();
    expect(
      within(panel).getByText(
        'Your feedback helps maintain a great community. Please rate your experience with this order.',
      ),
    ).toBeVisible();
    expect(within(panel).getAllByRole('form')).toHaveLength(2);

    // No star: nothing is sent, and the user is told why.
    const sellerForm = within(panel).getByRole('form', { name: 'Review of Sol Seller, Seller' });
    fireEvent.click(within(sellerForm).getByRole('button', { name: 'Submit Review' }));
    expect(await screen.findByText('Please select a rating')).toBeVisible();
    expect(screen.getByText('You must select at least 1 star')).toBeVisible();
    expect(posts()).toHaveLength(0);

    fireEvent.click(within(sellerForm).getByRole('radio', { name: '5 stars' }));
    fireEvent.change(within(sellerForm).getByRole('textbox'), { target: { value: '  Lovely  ' } });
    fireEvent.click(within(sellerForm).getByRole('button', { name: 'Submit Review' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(JSON.parse(String(posts()[0]?.[1]?.body))).toEqual({
      orderId: ORDER,
      revieweeId: seller.userId,
      revieweeRole: 'seller',
      reviewerRole: 'buyer',
      rating: 5,
      comment: 'Lovely',
    });
    await waitFor(() => expect(within(panel).getAllByRole('form')).toHaveLength(1));

    const driverForm = within(panel).getByRole('form', { name: 'Review of Dee Driver, Driver' });
    fireEvent.click(within(driverForm).getByRole('radio', { name: '3 stars' }));
    fireEvent.click(within(driverForm).getByRole('button', { name: 'Submit Review' }));
    await waitFor(() => expect(screen.queryByTestId('review-prompts')).toBeNull());
  });

  it('is not shown on an order that is not finished', () => {
    const fetchMock = mockFetch();
    renderWithProviders(<ReviewPrompts orderId={ORDER} status="in-transit" viewerId="me" />);
    expect(screen.queryByTestId('review-prompts')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('drops the form of someone reviewed meanwhile in another tab, and shows that review instead', async () => {
    // The seller was reviewed from another tab after this one read the prompts.
    const reviewedElsewhere = {
      id: 'r9',
      rating: 4,
      comment: 'Friendly',
      createdAt: '2026-11-23T16:00:00.000Z',
      reviewerId: 'me',
      reviewerName: 'Bea Buyer',
      reviewerRole: 'buyer' as const,
      revieweeId: seller.userId,
      revieweeRole: 'seller' as const,
      orderId: ORDER,
    };
    let isReviewed = false;
    mockFetch((url, init) => {
      if (url === `/api/reviews/order/${ORDER}`)
        return jsonResponse({
          reviews: isReviewed ? [reviewedElsewhere] : [],
          prompts: isReviewed ? [driver] : [seller, driver],
        } satisfies OrderReviews);
      if (url === '/api/reviews' && init?.method === 'POST') {
        isReviewed = true;
        return jsonResponse(
          {
            message: 'You have already reviewed the seller of this order.',
            code: 'conflict',
            requestId: 'q',
          },
          409,
        );
      }
      return undefined;
    });
    renderWithProviders(<ReviewPrompts orderId={ORDER} status="delivered" viewerId="me" />);
    const panel = await screen.findByTestId('review-prompts');
    const sellerForm = within(panel).getByRole('form', { name: 'Review of Sol Seller, Seller' });
    fireEvent.click(within(sellerForm).getByRole('radio', { name: '5 stars' }));
    fireEvent.click(within(sellerForm).getByRole('button', { name: 'Submit Review' }));

    expect(await screen.findByText('You have already reviewed the seller of this order.')).toBeVisible();
    await waitFor(() =>
      expect(within(panel).queryByRole('form', { name: 'Review of Sol Seller, Seller' })).toBeNull(),
    );
    expect(within(panel).getByRole('form', { name: 'Review of Dee Driver, Driver' })).toBeVisible();
    expect(within(panel).getByTestId('given-review-seller')).toHaveTextContent(
      'You reviewed the seller: 4 of 5 stars',
    );
  });
});
