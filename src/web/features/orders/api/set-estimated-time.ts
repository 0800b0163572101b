import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EstimatedTimeBody } from '@domain/deliveries';
import { orderSchema, type Order } from '@domain/orders';
import { apiSend } from '../../../lib/api-client';
import { ORDERS_KEY } from './order-keys';

/**
 * PATCH /api/orders/{id}/estimated-time {estimatedDeliveryTime} as ISO (docs/rules/deliveries.md,
 * Deliveries): the assigned driver's expected arrival, which the buyer and the seller then see.
 */
export async function setEstimatedTime(orderId: string, estimatedDeliveryTime: string): Promise<Order> {
  const body: EstimatedTimeBody = { estimatedDeliveryTime };
  return orderSchema.parse(
    await apiSend('PATCH', `/api/orders/${encodeURIComponent(orderId)}/estimated-time`, body),
  );
}

/** The lists show the new time at once; then everything about orders is read again. */
export function useSetEstimatedTime() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, at }: { orderId: string; at: string }) => setEstimatedTime(orderId, at),
    onSuccess: (changed) => {
      queryClient.setQueriesData<Order[]>({ queryKey: ORDERS_KEY }, (orders) =>
        Array.isArray(orders) ? orders.map((order) => (order.id === changed.id ? changed : order)) : orders,
      );
      return queryClient.invalidateQueries({ queryKey: ORDERS_KEY });
    },
  });
}
