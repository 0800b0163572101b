import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { adminDriverPageSchema, type AdminDriversQuery } from '@domain/admin';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_POLL_MS, queryStringOf } from './admin-data';

/** GET /api/admin/drivers: drivers with their images and last decision, waiting ones first. */
export async function fetchAdminDrivers(query: AdminDriversQuery, signal?: AbortSignal) {
  return adminDriverPageSchema.parse(
    await apiGet(`/api/admin/drivers${queryStringOf({ ...query })}`, signal),
  );
}

export function useAdminDrivers(query: AdminDriversQuery) {
  return useQuery({
    queryKey: ['/api/admin/drivers', query] as const,
    queryFn: ({ signal }) => fetchAdminDrivers(query, signal),
    refetchInterval: ADMIN_POLL_MS,
    placeholderData: keepPreviousData,
  });
}
