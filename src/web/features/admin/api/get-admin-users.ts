import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ZodType } from 'zod';
import type { AdminUser, AdminUsersQuery } from '@domain/admin';
import type { Page } from '@domain/admin-lists';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_POLL_MS, queryStringOf } from './admin-data';

/** The schema of a page of users, built once, with the first request. */
let userPage: Promise<ZodType<Page<AdminUser>>> | undefined;
function userPageSchema() {
  userPage ??= import('@domain/admin').then(
    ({ adminUserSchema, pageOf }) => pageOf(adminUserSchema),
    (error: unknown) => {
      userPage = undefined; // asked for again by the next request
      throw error;
    },
  );
  return userPage;
}

/** GET /api/admin/users: 10 a page, search by name or email, filter by role. */
export async function fetchAdminUsers(query: AdminUsersQuery, signal?: AbortSignal) {
  // The admin schemas load with the first request, beside it: the page the server rendered has its
  // first answers already (docs/decisions/0014-first-load.md).
  const [schema, body] = await Promise.all([
    userPageSchema(),
    apiGet(`/api/admin/users${queryStringOf({ ...query })}`, signal),
  ]);
  return schema.parse(body);
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
