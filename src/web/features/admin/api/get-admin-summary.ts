import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminSummarySchema, type AdminSummary } from '@domain/admin';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_POLL_MS } from './admin-data';

/** GET /api/admin/summary: the four cards (docs/rules/known-differences.md, Admin). */
export async function fetchAdminSummary(signal?: AbortSignal): Promise<AdminSummary> {
  return adminSummarySchema.parse(await apiGet('/api/admin/summary', signal));
}

export const adminSummaryQueryOptions = queryOptions({
  queryKey: ['/api/admin/summary'] as const,
  queryFn: ({ signal }) => fetchAdminSummary(signal),
  refetchInterval: ADMIN_POLL_MS,
});

export function useAdminSummary() {
  return useQuery(adminSummaryQueryOptions);
}
