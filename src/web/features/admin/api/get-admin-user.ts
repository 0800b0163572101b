import { useQuery } from '@tanstack/react-query';
import { adminUserDetailSchema, type AdminUserDetail } from '@domain/admin';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_POLL_MS } from './admin-data';

const userPath = (userId: string) => `/api/admin/users/${encodeURIComponent(userId)}`;

/**
 * GET /api/admin/users/{id}: the user's roles, suspension, driver verification, payout account,
 * addresses and orders as buyer, seller and driver.
 */
export async function fetchAdminUser(userId: string, signal?: AbortSignal): Promise<AdminUserDetail> {
  return adminUserDetailSchema.parse(await apiGet(userPath(userId), signal));
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
