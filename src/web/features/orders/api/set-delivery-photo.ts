import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeliveryPhotoBody } from '@domain/deliveries';
import { orderSchema, type Order } from '@domain/orders';
import { apiSend } from '../../../lib/api-client';
import { ORDERS_KEY } from './order-keys';

/**
 * PATCH /api/orders/{id}/delivery-photo {deliveryPhotoUrl} (docs/rules/deliveries.md, Deliveries): the
 * assigned driver's photo, readable by the order's parties and admins only. A trailer order needs it
 * before it goes in transit.
 */
export async function setDeliveryPhoto(orderId: string, deliveryPhotoUrl: string): Promise<Order> {
  const body: DeliveryPhotoBody = { deliveryPhotoUrl };
  return orderSchema.parse(
    await apiSend('PATCH', `/api/orders/${encodeURIComponent(orderId)}/delivery-photo`, body),
  );
}

export function useSetDeliveryPhoto() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, photo }: { orderId: string; photo: string }) => setDeliveryPhoto(orderId, photo),
    onSuccess: (changed) => {
      queryClient.setQueriesData<Order[]>({ queryKey: ORDERS_KEY }, (orders) =>
        Array.isArray(orders) ? orders.map((order) => (order.id === changed.id ? changed : order)) : orders,
      );
      return queryClient.invalidateQueries({ queryKey: ORDERS_KEY });
    },
  });
}
