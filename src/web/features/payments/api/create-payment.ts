import { useQuery } from '@tanstack/react-query';
import { paymentIntentSchema, type CheckoutBody, type PaymentIntent } from '@domain/checkout';
import { apiSend } from '../../../lib/api-client';

export const CREATE_PAYMENT_KEY = ['/api/payments', 'create'] as const;

/** POST /api/payments: the server prices the checkout again and starts a payment for its total. */
export async function createPayment(body: CheckoutBody): Promise<PaymentIntent> {
  return paymentIntentSchema.parse(await apiSend('POST', '/api/payments', body));
}

/**
 * The payment of this checkout, created once per visit of the payment screen: a query keyed by the
 * body dedupes the call (a re-render, or React's development double mount, never makes a second
 * payment), and is dropped as soon as the screen is left (gcTime 0), so a later visit, with a cart
 * that may look the same, starts a new payment instead of reusing a paid one.
 */
export function useCreatePayment(body: CheckoutBody | null) {
  return useQuery({
    queryKey: [...CREATE_PAYMENT_KEY, body] as const,
    queryFn: () => createPayment(body ?? { items: [], isPickup: false }),
    enabled: body !== null && body.items.length > 0,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
}
