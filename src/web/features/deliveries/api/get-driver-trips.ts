import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { driverTripSchema, type DriverTrip } from '@domain/deliveries';
import { apiGet } from '../../../lib/api-client';

export const DRIVER_TRIPS_KEY = ['/api/earnings/driver/trips'] as const;

/** GET /api/earnings/driver/trips: the caller's deliveries, latest first (docs/rules/deliveries.md, Deliveries). */
export async function fetchDriverTrips(limit: number, signal?: AbortSignal): Promise<DriverTrip[]> {
  return z.array(driverTripSchema).parse(await apiGet(`/api/earnings/driver/trips?limit=${limit}`, signal));
}

/** The latest `limit` trips; the ones shown stay while more are read. */
export function useDriverTrips(limit: number) {
  return useQuery({
    queryKey: [...DRIVER_TRIPS_KEY, { limit }],
    queryFn: ({ signal }) => fetchDriverTrips(limit, signal),
    placeholderData: keepPreviousData,
  });
}
