import { useQuery } from '@tanstack/react-query';
import { orderSchema, type Order } from '@domain/orders';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_POLL_MS } from './admin-data';

/** GET /api/orders/{id}: an admin sees every order. */
export async function fetchOrder(orderId: string, signal?: AbortSignal): Promise<Order> {
  return orderSchema.parse(await apiGet(`/api/orders/${encodeURIComponent(orderId)}`, signal));
}

/**
 * Keyed under /api/orders, so cancelling it from the shared order details (which refreshes every
 * order query) shows the new status here too.
 */
export function useOrder(orderId: string | null) {
  return useQuery({
    queryKey: ['/api/orders', orderId ?? '', 'admin-detail'] as const,
    queryFn: ({ signal }) => fetchOrder(orderId ?? '', signal),
    enabled: orderId !== null,
    refetchInterval: ADMIN_POLL_MS,
  });
}
