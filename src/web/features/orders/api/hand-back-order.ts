import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { rememberHandedBack } from '../handed-back-orders';
import { ORDERS_KEY } from './order-keys';

/**
 * POST /api/orders/{id}/hand-back: the assigned driver gives an accepted order back before Start
 * Delivery; it is offered to other drivers again (docs/rules/deliveries.md, Deliveries).
 */
export async function handBackOrder(orderId: string): Promise<void> {
  await apiRequest('POST', `/api/orders/${encodeURIComponent(orderId)}/hand-back`);
}

/**
 * The callbacks belong to the mutation: the button that asked is gone once the order leaves the
 * driver's list. The driver's orders are read again (it is no longer theirs).
 */
export function useHandBackOrder(
  callbacks: { onHandedBack?: (orderId: string) => void; onFailed?: (error: unknown) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: handBackOrder,
    onMutate: (orderId) => rememberHandedBack(orderId),
    onError: (error) => callbacks.onFailed?.(error),
    onSuccess: (_answer, orderId) => {
      callbacks.onHandedBack?.(orderId);
      return queryClient.invalidateQueries({ queryKey: ORDERS_KEY });
    },
  });
}
