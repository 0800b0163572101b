import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { adminActivityPageSchema, type AdminActivityQuery } from '@domain/admin';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_POLL_MS, queryStringOf } from './admin-data';

/** GET /api/admin/activity: the audit trail, newest first, 10 a page. */
export async function fetchAdminActivity(query: AdminActivityQuery, signal?: AbortSignal) {
  return adminActivityPageSchema.parse(
    await apiGet(`/api/admin/activity${queryStringOf({ ...query })}`, signal),
  );
}

export function useAdminActivity(query: AdminActivityQuery) {
  return useQuery({
    queryKey: ['/api/admin/activity', query] as const,
    queryFn: ({ signal }) => fetchAdminActivity(query, signal),
    refetchInterval: ADMIN_POLL_MS,
    placeholderData: keepPreviousData,
  });
}
