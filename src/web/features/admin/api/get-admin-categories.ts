import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { adminCategoryPageSchema, type AdminCategoriesQuery } from '@domain/admin';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_POLL_MS, queryStringOf } from './admin-data';

/** GET /api/admin/categories: by name with their product counts, 10 a page. */
export async function fetchAdminCategories(query: AdminCategoriesQuery, signal?: AbortSignal) {
  return adminCategoryPageSchema.parse(
    await apiGet(`/api/admin/categories${queryStringOf({ ...query })}`, signal),
  );
}

export function useAdminCategories(query: AdminCategoriesQuery) {
  return useQuery({
    queryKey: ['/api/admin/categories', query] as const,
    queryFn: ({ signal }) => fetchAdminCategories(query, signal),
    refetchInterval: ADMIN_POLL_MS,
    placeholderData: keepPreviousData,
  });
}
