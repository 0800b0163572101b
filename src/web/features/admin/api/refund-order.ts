import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { orderItemSchema, orderSchema, type Order } from '@domain/orders';
import type { RefundFinishedOrderBody } from '@domain/payouts';
import { apiGet, apiSend } from '../../../lib/api-client';
import { invalidateAdminData } from './admin-data';

/**
 * POST /api/admin/orders/{id}/refund: our addition, a refund of a finished order, whole or in part
 * (an amount or chosen items; docs/decisions/0018-money-against-stripe.md, Refunds).
 */
export async function refundFinishedOrder(orderId: string, body: RefundFinishedOrderBody): Promise<Order> {
  return orderSchema.parse(
    await apiSend('POST', `/api/admin/orders/${encodeURIComponent(orderId)}/refund`, body),
  );
}

export function useRefundFinishedOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, body }: { orderId: string; body: RefundFinishedOrderBody }) =>
      refundFinishedOrder(orderId, body),
    onSuccess: (order) => {
      queryClient.setQueryData(['/api/orders', order.id, 'admin-detail'], order);
    },
    onSettled: async () => {
      await invalidateAdminData(queryClient);
      await queryClient.invalidateQueries({ queryKey: ['/api/orders'] });
    },
  });
}

/** GET /api/orders/{id}/items, for choosing the items to refund. */
export function useOrderItemsToRefund(orderId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['/api/orders', orderId, 'items', 'admin-refund'] as const,
    queryFn: async ({ signal }) =>
      z
        .array(orderItemSchema)
        .parse(await apiGet(`/api/orders/${encodeURIComponent(orderId)}/items`, signal)),
    enabled,
  });
}
