import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminSummary } from '@domain/admin';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_POLL_MS } from './admin-data';

/** GET /api/admin/summary: the four cards (docs/rules/known-differences.md, Admin). */
export async function fetchAdminSummary(signal?: AbortSignal): Promise<AdminSummary> {
  // The admin schemas load with the first request, beside it (docs/decisions/0014-first-load.md).
  const [{ adminSummarySchema }, body] = await Promise.all([
    import('@domain/admin'),
    apiGet('/api/admin/summary', signal),
  ]);
  return adminSummarySchema.parse(body);
}

export const adminSummaryQueryOptions = queryOptions({
  queryKey: ['/api/admin/summary'] as const,
  queryFn: ({ signal }) => fetchAdminSummary(signal),
  refetchInterval: ADMIN_POLL_MS,
});

export function useAdminSummary() {
  return useQuery(adminSummaryQueryOptions);
}
