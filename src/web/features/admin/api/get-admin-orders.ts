import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { adminOrderPageSchema, type AdminOrdersQuery } from '@domain/admin';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_POLL_MS, queryStringOf } from './admin-data';

/** GET /api/admin/orders: 10 a page, search by order number, filter by status. */
export async function fetchAdminOrders(query: AdminOrdersQuery, signal?: AbortSignal) {
  return adminOrderPageSchema.parse(await apiGet(`/api/admin/orders${queryStringOf({ ...query })}`, signal));
}

export function useAdminOrders(query: AdminOrdersQuery) {
  return useQuery({
    queryKey: ['/api/admin/orders', query] as const,
    queryFn: ({ signal }) => fetchAdminOrders(query, signal),
    refetchInterval: ADMIN_POLL_MS,
    placeholderData: keepPreviousData,
  });
}
