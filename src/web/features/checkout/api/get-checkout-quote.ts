import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { CheckoutBody, CheckoutQuote } from '@domain/checkout';
import { apiRequest, readJson } from '../../../lib/api-client';

export const CHECKOUT_QUOTE_KEY = ['/api/checkout/quote'] as const;

/** POST /api/checkout/quote: the cart priced by the server, one order per seller, with its problems. */
export async function fetchCheckoutQuote(body: CheckoutBody, signal?: AbortSignal): Promise<CheckoutQuote> {
  // The schemas load with the first quote, beside it, not with the page
  // (docs/decisions/0014-first-load.md).
  const [{ checkoutQuoteSchema }, answer] = await Promise.all([
    import('@domain/checkout'),
    apiRequest('POST', '/api/checkout/quote', body, signal).then(readJson),
  ]);
  return checkoutQuoteSchema.parse(answer);
}

/**
 * A read, though it is a POST (nothing is written): keyed by the body, so every change of the cart
 * or of a choice asks again, while the previous answer stays on screen.
 */
export function checkoutQuoteQueryOptions(body: CheckoutBody) {
  return queryOptions({
    queryKey: [...CHECKOUT_QUOTE_KEY, body] as const,
    queryFn: ({ signal }) => fetchCheckoutQuote(body, signal),
    placeholderData: keepPreviousData,
    // Prices and stock move: a checkout opened again asks again.
    staleTime: 0,
  });
}

export function useCheckoutQuote(body: CheckoutBody | null) {
  return useQuery({
    ...checkoutQuoteQueryOptions(body ?? { items: [], isPickup: false }),
    enabled: body !== null && body.items.length > 0,
  });
}
