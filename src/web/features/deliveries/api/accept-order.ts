import { useMutation, useQueryClient } from '@tanstack/react-query';
import { orderSchema, type Order } from '@domain/orders';
import { apiSend } from '../../../lib/api-client';
import { AVAILABLE_ORDERS_KEY } from './delivery-keys';

/**
 * POST /api/orders/{id}/assign (docs/rules/deliveries.md, Deliveries): the order becomes the driver's,
 * or a 409 "This order was already taken" when another driver was quicker.
 */
export async function acceptOrder(orderId: string): Promise<Order> {
  return orderSchema.parse(await apiSend('POST', `/api/orders/${encodeURIComponent(orderId)}/assign`));
}

/**
 * Whatever the answer, the offers are read again: a lost race removes the order from the list. The
 * caller refreshes what else shows the order (My Deliveries) in `onAccepted`.
 */
export function useAcceptOrder(
  callbacks: { onAccepted?: (order: Order) => void; onFailed?: (error: unknown) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptOrder,
    onError: (error) => callbacks.onFailed?.(error),
    onSuccess: (order) => callbacks.onAccepted?.(order),
    onSettled: () => queryClient.invalidateQueries({ queryKey: AVAILABLE_ORDERS_KEY }),
  });
}
