import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { AVAILABLE_ORDERS_KEY } from './delivery-keys';

/** POST /api/orders/{id}/decline: hides the order from this driver only (docs/rules/deliveries.md, Deliveries). */
export async function declineOrder(orderId: string): Promise<void> {
  await apiRequest('POST', `/api/orders/${encodeURIComponent(orderId)}/decline`);
}

/**
 * The list is not read again after a decline: its card gives way to a row with Undo until the list
 * is next read, which leaves the order out (docs/rules/screens-work.md, Driver dashboard). A refused
 * decline (the order was taken meanwhile) reads it again at once.
 */
export function useDeclineOrder(
  callbacks: { onDeclined?: (orderId: string) => void; onFailed?: (error: unknown) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: declineOrder,
    onError: (error) => {
      callbacks.onFailed?.(error);
      return queryClient.invalidateQueries({ queryKey: AVAILABLE_ORDERS_KEY });
    },
    onSuccess: (_answer, orderId) => callbacks.onDeclined?.(orderId),
  });
}
