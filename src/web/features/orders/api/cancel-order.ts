import { useMutation, useQueryClient } from '@tanstack/react-query';
import { orderSchema, type Order } from '@domain/orders';
import { apiSend } from '../../../lib/api-client';
import { ORDERS_KEY } from './order-keys';

/**
 * POST /api/orders/{id}/cancel: the server refunds the order in full and puts the stock back
 * (docs/rules/catalog-and-orders.md, Order lifecycle).
 */
export async function cancelOrder(orderId: string): Promise<Order> {
  return orderSchema.parse(await apiSend('POST', `/api/orders/${encodeURIComponent(orderId)}/cancel`));
}

/**
 * `onCancelled` and `onFailed` belong to the mutation, not to one `mutate` call: they run even when
 * the component that asked is gone (the Cancel button disappears as soon as the order is cancelled).
 */
export function useCancelOrder(
  callbacks: {
    onCancelled?: (order: Order) => void;
    onFailed?: (error: unknown) => void;
  } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelOrder,
    onError: (error) => callbacks.onFailed?.(error),
    onSuccess: (cancelled) => {
      callbacks.onCancelled?.(cancelled);
      // The list shows the new status at once; then everything about orders is read again.
      queryClient.setQueriesData<Order[]>({ queryKey: ORDERS_KEY }, (orders) =>
        Array.isArray(orders)
          ? orders.map((order) => (order.id === cancelled.id ? cancelled : order))
          : orders,
      );
      return queryClient.invalidateQueries({ queryKey: ORDERS_KEY });
    },
  });
}
