import { useQuery } from '@tanstack/react-query';
import { driverEarningsSchema, type DriverEarnings } from '@domain/deliveries';
import { apiGet } from '../../../lib/api-client';

export const DRIVER_EARNINGS_KEY = ['/api/earnings/driver'] as const;

/** GET /api/earnings/driver: the driver's share of delivered orders (docs/rules/deliveries.md, Deliveries). */
export async function fetchDriverEarnings(signal?: AbortSignal): Promise<DriverEarnings> {
  return driverEarningsSchema.parse(await apiGet('/api/earnings/driver', signal));
}

export function useDriverEarnings() {
  return useQuery({ queryKey: DRIVER_EARNINGS_KEY, queryFn: ({ signal }) => fetchDriverEarnings(signal) });
}
