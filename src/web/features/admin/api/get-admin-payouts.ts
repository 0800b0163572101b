import { useQuery } from '@tanstack/react-query';
import { adminPayoutsSchema } from '@domain/payouts';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_POLL_MS } from './admin-data';

/** GET /api/admin/payouts: the platform's balance, what is owed, and failing payouts. */
export async function fetchAdminPayouts(signal?: AbortSignal) {
  return adminPayoutsSchema.parse(await apiGet('/api/admin/payouts', signal));
}

export function useAdminPayouts() {
  return useQuery({
    queryKey: ['/api/admin/payouts'] as const,
    queryFn: ({ signal }) => fetchAdminPayouts(signal),
    refetchInterval: ADMIN_POLL_MS,
  });
}
