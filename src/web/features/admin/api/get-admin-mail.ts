import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { adminMailPageSchema } from '@domain/mail';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_POLL_MS, queryStringOf } from './admin-data';

/** GET /api/admin/mail: the mail sent or queued, newest first, 10 a page. */
export function useAdminMail(query: { page: number }) {
  return useQuery({
    queryKey: ['/api/admin/mail', query] as const,
    queryFn: async ({ signal }) =>
      adminMailPageSchema.parse(await apiGet(`/api/admin/mail${queryStringOf({ ...query })}`, signal)),
    refetchInterval: ADMIN_POLL_MS,
    placeholderData: keepPreviousData,
  });
}
