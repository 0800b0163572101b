import { useQuery } from '@tanstack/react-query';
import { adminDisputesSchema } from '@domain/disputes';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_POLL_MS } from './admin-data';

/** GET /api/admin/disputes: open disputes first, the soonest evidence deadline first. */
export async function fetchAdminDisputes(signal?: AbortSignal) {
  return adminDisputesSchema.parse(await apiGet('/api/admin/disputes', signal));
}

export function useAdminDisputes() {
  return useQuery({
    queryKey: ['/api/admin/disputes'] as const,
    queryFn: ({ signal }) => fetchAdminDisputes(signal),
    refetchInterval: ADMIN_POLL_MS,
  });
}
