import { expect, type APIRequestContext } from '@playwright/test';

export interface PlacedOrder {
  id: string;
  orderNumber: string;
}

/** What POST /api/payments takes: the cart's lines and how they reach the buyer. */
export interface PaymentBody {
  items: { productId: string; quantity: number }[];
  isPickup: boolean;
  deliveryAddressId?: string;
  [field: string]: unknown;
}

/**
 * Pays for a cart by card through the API, as the checkout does (POST /api/payments, then its
 * confirm with the card provider's test number that succeeds), and answers the orders made.
 */
export async function payByCard(request: APIRequestContext, body: PaymentBody): Promise<PlacedOrder[]> {
  const payment = await request.post('/api/payments', { data: body });
  expect(payment.status(), await payment.text()).toBe(201);
  const { paymentId } = (await payment.json()) as { paymentId: string };
  const confirmed = await request.post(`/api/payments/${paymentId}/confirm`, {
    data: { cardNumber: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Eve Tester' },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  const { orders } = (await confirmed.json()) as { orders: PlacedOrder[] };
  return orders;
}
