import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { orderEventSchema, type OrderEvent } from '@domain/orders';
import { apiGet } from '../../../lib/api-client';
import { ORDERS_KEY } from './order-keys';

/**
 * GET /api/orders/{id}/events: every status change with its time, oldest first
 * (docs/rules/catalog-and-orders.md, Order lifecycle).
 */
export async function fetchOrderEvents(orderId: string, signal?: AbortSignal): Promise<OrderEvent[]> {
  return z
    .array(orderEventSchema)
    .parse(await apiGet(`/api/orders/${encodeURIComponent(orderId)}/events`, signal));
}

/**
 * Keyed by the order's last change too: when a poll of the list brings a new status, the timeline
 * asks again (its times come only from this call).
 */
export function orderEventsQueryOptions(orderId: string, updatedAt: string) {
  return queryOptions({
    queryKey: [...ORDERS_KEY, orderId, 'events', updatedAt] as const,
    queryFn: ({ signal }) => fetchOrderEvents(orderId, signal),
  });
}

export function useOrderEvents(orderId: string, updatedAt: string) {
  return useQuery(orderEventsQueryOptions(orderId, updatedAt));
}
