import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AdminUsersQuery } from '@domain/admin';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_POLL_MS, queryStringOf } from './admin-data';

/** GET /api/admin/users: 10 a page, search by name or email, filter by role. */
export async function fetchAdminUsers(query: AdminUsersQuery, signal?: AbortSignal) {
  // The admin schemas load with the first request, beside it: the page the server rendered has its
  // first answers already (docs/decisions/0014-first-load.md).
  const [{ adminUserSchema, pageOf }, body] = await Promise.all([
    import('@domain/admin'),
    apiGet(`/api/admin/users${queryStringOf({ ...query })}`, signal),
  ]);
  return pageOf(adminUserSchema).parse(body);
}

export function useAdminUsers(query: AdminUsersQuery) {
  return useQuery({
    queryKey: ['/api/admin/users', query] as const,
    queryFn: ({ signal }) => fetchAdminUsers(query, signal),
    refetchInterval: ADMIN_POLL_MS,
    // The old page stays while the next one loads, so the table does not jump.
    placeholderData: keepPreviousData,
  });
}
