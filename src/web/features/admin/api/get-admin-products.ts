import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { adminProductSchema, pageOf, type AdminProduct, type AdminProductsQuery } from '@domain/admin';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_POLL_MS, queryStringOf } from './admin-data';

export type AdminProductRow = AdminProduct;
const adminProductRowPageSchema = pageOf(adminProductSchema);

/** GET /api/admin/products: every product, 10 a page; search, category, Active/Inactive. */
export async function fetchAdminProducts(query: AdminProductsQuery, signal?: AbortSignal) {
  return adminProductRowPageSchema.parse(
    await apiGet(`/api/admin/products${queryStringOf({ ...query })}`, signal),
  );
}

export function useAdminProducts(query: AdminProductsQuery) {
  return useQuery({
    queryKey: ['/api/admin/products', query] as const,
    queryFn: ({ signal }) => fetchAdminProducts(query, signal),
    refetchInterval: ADMIN_POLL_MS,
    placeholderData: keepPreviousData,
  });
}
