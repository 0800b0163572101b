import { useQuery } from '@tanstack/react-query';
import { adminJobsSchema } from '@domain/jobs';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_POLL_MS } from './admin-data';

/** GET /api/admin/jobs: the durable jobs, their waiting and running runs and recent failures. */
export function useAdminJobs() {
  return useQuery({
    queryKey: ['/api/admin/jobs'] as const,
    queryFn: async ({ signal }) => adminJobsSchema.parse(await apiGet('/api/admin/jobs', signal)),
    refetchInterval: ADMIN_POLL_MS,
  });
}
