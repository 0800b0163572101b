import { useMutation, useQueryClient } from '@tanstack/react-query';
import { orderSchema, type Order } from '@domain/orders';
import { apiSend } from '../../../lib/api-client';
import { invalidateAdminData } from './admin-data';

/** POST /api/admin/orders/{id}/refund: our addition, a full refund of a finished order. */
export async function refundFinishedOrder(orderId: string, reason: string): Promise<Order> {
  return orderSchema.parse(
    await apiSend('POST', `/api/admin/orders/${encodeURIComponent(orderId)}/refund`, { reason }),
  );
}

export function useRefundFinishedOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, reason }: { orderId: string; reason: string }) =>
      refundFinishedOrder(orderId, reason),
    onSettled: () => invalidateAdminData(queryClient),
  });
}
