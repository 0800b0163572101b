import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AvailableOrder } from '@domain/deliveries';
import { apiRequest } from '../../../lib/api-client';
import { AVAILABLE_ORDERS_KEY } from './get-available-orders';

/** POST /api/orders/{id}/decline: hides the order from this driver only (docs/product-rules.md, Deliveries). */
export async function declineOrder(orderId: string): Promise<void> {
  await apiRequest('POST', `/api/orders/${encodeURIComponent(orderId)}/decline`);
}

/** The card goes at once; the list is then read again. */
export function useDeclineOrder(callbacks: { onFailed?: (error: unknown) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: declineOrder,
    onError: (error) => callbacks.onFailed?.(error),
    onSuccess: (_answer, orderId) => {
      queryClient.setQueriesData<AvailableOrder[]>({ queryKey: AVAILABLE_ORDERS_KEY }, (orders) =>
        Array.isArray(orders) ? orders.filter((order) => order.id !== orderId) : orders,
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: AVAILABLE_ORDERS_KEY }),
  });
}
