import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { distanceLimitOf } from '@domain/catalog-distance';
import { availableOrderSchema, type AvailableOrder } from '@domain/deliveries';
import { apiGet } from '../../../lib/api-client';
import { AVAILABLE_ORDERS_KEY } from './delivery-keys';

/**
 * Offers change while the driver looks: the list is read again every 60 s, like the orders list
 * (docs/rules/screens-shared.md, Constants).
 */
export const AVAILABLE_ORDERS_POLL_MS = 60_000;

/**
 * GET /api/orders/available?maxDistance={miles}, the parameter left out at 500 (any distance;
 * docs/rules/deliveries.md, Deliveries).
 */
export async function fetchAvailableOrders(
  maxDistance: number,
  signal?: AbortSignal,
): Promise<AvailableOrder[]> {
  const limit = distanceLimitOf(maxDistance);
  const url = limit === undefined ? '/api/orders/available' : `/api/orders/available?maxDistance=${limit}`;
  return z.array(availableOrderSchema).parse(await apiGet(url, signal));
}

export function availableOrdersQueryOptions(maxDistance: number, enabled: boolean) {
  return queryOptions({
    queryKey: [...AVAILABLE_ORDERS_KEY, { maxDistance }] as const,
    queryFn: ({ signal }) => fetchAvailableOrders(maxDistance, signal),
    refetchInterval: AVAILABLE_ORDERS_POLL_MS,
    enabled,
  });
}

/** Only asked for once the driver may see offers (verified, or an admin): the server refuses others. */
export function useAvailableOrders(maxDistance: number, enabled: boolean) {
  return useQuery(availableOrdersQueryOptions(maxDistance, enabled));
}
