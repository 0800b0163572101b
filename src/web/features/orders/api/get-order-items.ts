import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { orderItemSchema, type OrderItem } from '@domain/orders';
import { apiGet } from '../../../lib/api-client';
import { ORDERS_KEY } from './order-keys';

/**
 * GET /api/orders/{id}/items (docs/rules/screens-buyer.md, Order screens); a driver's answer carries no
 * prices.
 */
export async function fetchOrderItems(orderId: string, signal?: AbortSignal): Promise<OrderItem[]> {
  return z
    .array(orderItemSchema)
    .parse(await apiGet(`/api/orders/${encodeURIComponent(orderId)}/items`, signal));
}

export function orderItemsQueryOptions(orderId: string) {
  return queryOptions({
    queryKey: [...ORDERS_KEY, orderId, 'items'] as const,
    queryFn: ({ signal }) => fetchOrderItems(orderId, signal),
  });
}

export function useOrderItems(orderId: string) {
  return useQuery(orderItemsQueryOptions(orderId));
}
