import { useMutation, useQueryClient } from '@tanstack/react-query';
import { orderSchema, type Order, type OrderStatusChangeBody } from '@domain/orders';
import { apiSend } from '../../../lib/api-client';
import { ORDERS_KEY } from './order-keys';

/**
 * PATCH /api/orders/{id}/status: one step forward on the order's path (docs/rules/catalog-and-orders.md,
 * Order lifecycle); a step that is not allowed now is a 409 with the server's sentence.
 */
export async function changeOrderStatus(
  orderId: string,
  status: OrderStatusChangeBody['status'],
): Promise<Order> {
  return orderSchema.parse(
    await apiSend('PATCH', `/api/orders/${encodeURIComponent(orderId)}/status`, { status }),
  );
}

/** As with cancelling, the callbacks belong to the mutation: the button that asked may be gone. */
export function useChangeOrderStatus(
  callbacks: { onChanged?: (order: Order) => void; onFailed?: (error: unknown) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, status }: { orderId: string; status: OrderStatusChangeBody['status'] }) =>
      changeOrderStatus(orderId, status),
    onError: (error) => callbacks.onFailed?.(error),
    onSuccess: (changed) => {
      callbacks.onChanged?.(changed);
      queryClient.setQueriesData<Order[]>({ queryKey: ORDERS_KEY }, (orders) =>
        Array.isArray(orders) ? orders.map((order) => (order.id === changed.id ? changed : order)) : orders,
      );
      return queryClient.invalidateQueries({ queryKey: ORDERS_KEY });
    },
  });
}
