import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  seller30DaySalesSchema,
  sellerEarningsSchema,
  weeklyEarningsSchema,
  type Seller30DaySales,
  type SellerEarnings,
  type WeeklyEarnings,
} from '@domain/earnings';
import { apiGet } from '../../../lib/api-client';
import { EARNINGS_KEY } from './earnings-keys';

/** GET /api/earnings/seller: total earnings and the number of finished orders. */
export async function fetchSellerEarnings(signal?: AbortSignal): Promise<SellerEarnings> {
  return sellerEarningsSchema.parse(await apiGet('/api/earnings/seller', signal));
}

/** GET /api/earnings/seller-30day/{userId}: the seller's sales of the last 30 days. */
export async function fetchSeller30DaySales(userId: string, signal?: AbortSignal): Promise<Seller30DaySales> {
  return seller30DaySalesSchema.parse(
    await apiGet(`/api/earnings/seller-30day/${encodeURIComponent(userId)}`, signal),
  );
}

/** GET /api/earnings/seller/weekly: earnings of each of the last 12 weeks, oldest first. */
export async function fetchWeeklyEarnings(signal?: AbortSignal): Promise<WeeklyEarnings> {
  return weeklyEarningsSchema.parse(await apiGet('/api/earnings/seller/weekly', signal));
}

export function useSellerEarnings() {
  return useQuery(
    queryOptions({
      queryKey: [...EARNINGS_KEY, 'seller'] as const,
      queryFn: ({ signal }) => fetchSellerEarnings(signal),
    }),
  );
}

export function useSeller30DaySales(userId: string) {
  return useQuery(
    queryOptions({
      queryKey: [...EARNINGS_KEY, 'seller-30day', userId] as const,
      queryFn: ({ signal }) => fetchSeller30DaySales(userId, signal),
    }),
  );
}

export function useWeeklyEarnings() {
  return useQuery(
    queryOptions({
      queryKey: [...EARNINGS_KEY, 'seller', 'weekly'] as const,
      queryFn: ({ signal }) => fetchWeeklyEarnings(signal),
    }),
  );
}
