import { useMutation } from '@tanstack/react-query';
import { paymentResultSchema, type PaymentConfirmBody, type PaymentResult } from '@domain/checkout';
import { apiSend } from '../../../lib/api-client';

/**
 * POST /api/payments/{id}/confirm. Test provider: the card fields (402 "Your card was declined.");
 * Stripe: {} once Stripe.js confirmed the card. Success answers the orders the payment made.
 */
export async function confirmPayment(paymentId: string, body: PaymentConfirmBody): Promise<PaymentResult> {
  return paymentResultSchema.parse(
    await apiSend('POST', `/api/payments/${encodeURIComponent(paymentId)}/confirm`, body),
  );
}

export function useConfirmPayment() {
  return useMutation({
    mutationFn: ({ paymentId, body }: { paymentId: string; body: PaymentConfirmBody }) =>
      confirmPayment(paymentId, body),
  });
}
