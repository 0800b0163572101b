import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { orderSchema, type Order } from '@domain/orders';
import { apiGet } from '../../../lib/api-client';
import { ORDERS_KEY } from './order-keys';

/** The orders list is polled every 60 s (docs/rules/screens-buyer.md, Order screens; docs/rules/screens-shared.md, Constants). */
export const ORDERS_POLL_MS = 60_000;

/**
 * The toast and notice when a list of orders cannot be read: the driver's deliveries and the
 * offers alike (docs/rules/screens-work.md, Driver dashboard).
 */
export const FETCH_ORDERS_FAILED = 'Failed to fetch orders';

export type OrderListView = 'buyer' | 'seller' | 'driver';

/** GET /api/orders?as=…: the user's orders in one capacity, newest first. */
export async function fetchOrders(view: OrderListView, signal?: AbortSignal): Promise<Order[]> {
  return z.array(orderSchema).parse(await apiGet(`/api/orders?as=${view}`, signal));
}

export function ordersQueryOptions(view: OrderListView) {
  return queryOptions({
    queryKey: [...ORDERS_KEY, { as: view }] as const,
    queryFn: ({ signal }) => fetchOrders(view, signal),
    refetchInterval: ORDERS_POLL_MS,
  });
}

export function useOrders(view: OrderListView) {
  return useQuery(ordersQueryOptions(view));
}
