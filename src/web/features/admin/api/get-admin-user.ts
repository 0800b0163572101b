import { useQuery } from '@tanstack/react-query';
import type { AdminUserDetail } from '@domain/admin';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_POLL_MS } from './admin-data';

const userPath = (userId: string) => `/api/admin/users/${encodeURIComponent(userId)}`;

/**
 * GET /api/admin/users/{id}: the user's roles, suspension, driver verification, payout account,
 * addresses and orders as buyer, seller and driver.
 */
export async function fetchAdminUser(userId: string, signal?: AbortSignal): Promise<AdminUserDetail> {
  // The schema loads with the first request, beside it: the admin page shows its users without
  // building it (docs/decisions/0014-first-load.md).
  const [{ adminUserDetailSchema }, body] = await Promise.all([
    import('@domain/admin'),
    apiGet(userPath(userId), signal),
  ]);
  return adminUserDetailSchema.parse(body);
}

/** Keyed under /api/admin, so every admin change reads it again. */
export function useAdminUser(userId: string | null) {
  return useQuery({
    queryKey: [userPath(userId ?? '')] as const,
    queryFn: ({ signal }) => fetchAdminUser(userId ?? '', signal),
    enabled: userId !== null,
    refetchInterval: ADMIN_POLL_MS,
  });
}
