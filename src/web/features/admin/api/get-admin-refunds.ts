import { useQuery } from '@tanstack/react-query';
import { refundsNeedingAttentionSchema } from '@domain/refunds';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_POLL_MS } from './admin-data';

/** GET /api/admin/refunds: refunds that failed or still wait, oldest first. */
export async function fetchAdminRefunds(signal?: AbortSignal) {
  return refundsNeedingAttentionSchema.parse(await apiGet('/api/admin/refunds', signal));
}

export function useAdminRefunds() {
  return useQuery({
    queryKey: ['/api/admin/refunds'] as const,
    queryFn: ({ signal }) => fetchAdminRefunds(signal),
    refetchInterval: ADMIN_POLL_MS,
  });
}
