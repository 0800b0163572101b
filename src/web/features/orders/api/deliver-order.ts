import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeliverBody } from '@domain/delivery-proof';
import { orderSchema, type Order } from '@domain/orders';
import { apiSend } from '../../../lib/api-client';
import { ORDERS_KEY } from './order-keys';

/**
 * POST /api/orders/{id}/deliver: Mark Delivered with its proof, the drop-off photo and/or the
 * buyer's code as the marketplace asks, and the place if the driver gave it
 * (docs/rules/deliveries.md, Deliveries).
 */
export async function deliverOrder(orderId: string, body: DeliverBody): Promise<Order> {
  return orderSchema.parse(await apiSend('POST', `/api/orders/${encodeURIComponent(orderId)}/deliver`, body));
}

/** The callbacks belong to the mutation, as with the status step: the dialog that asked may be gone. */
export function useDeliverOrder(
  callbacks: { onDelivered?: (order: Order) => void; onFailed?: (error: unknown) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, body }: { orderId: string; body: DeliverBody }) => deliverOrder(orderId, body),
    onError: (error) => callbacks.onFailed?.(error),
    onSuccess: (changed) => {
      callbacks.onDelivered?.(changed);
      queryClient.setQueriesData<Order[]>({ queryKey: ORDERS_KEY }, (orders) =>
        Array.isArray(orders) ? orders.map((order) => (order.id === changed.id ? changed : order)) : orders,
      );
      return queryClient.invalidateQueries({ queryKey: ORDERS_KEY });
    },
  });
}
