import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { adminUserSchema, pageOf, type AdminUsersQuery } from '@domain/admin';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_POLL_MS, queryStringOf } from './admin-data';

const adminUserRowPageSchema = pageOf(adminUserSchema);

/** GET /api/admin/users: 10 a page, search by name or email, filter by role. */
export async function fetchAdminUsers(query: AdminUsersQuery, signal?: AbortSignal) {
  return adminUserRowPageSchema.parse(await apiGet(`/api/admin/users${queryStringOf({ ...query })}`, signal));
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
