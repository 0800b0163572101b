import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { AVAILABLE_ORDERS_KEY } from './delivery-keys';

/**
 * DELETE /api/orders/{id}/decline: a mistaken Decline undone, the order offered to this driver
 * again (docs/rules/deliveries.md, Deliveries).
 */
export async function undoDecline(orderId: string): Promise<void> {
  await apiRequest('DELETE', `/api/orders/${encodeURIComponent(orderId)}/decline`);
}

/** The card comes back at once; the list is then read again. */
export function useUndoDecline(
  callbacks: { onUndone?: (orderId: string) => void; onFailed?: (error: unknown) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: undoDecline,
    onError: (error) => callbacks.onFailed?.(error),
    onSuccess: (_answer, orderId) => {
      callbacks.onUndone?.(orderId);
      return queryClient.invalidateQueries({ queryKey: AVAILABLE_ORDERS_KEY });
    },
  });
}
