import { queryOptions, useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { categorySchema, type Category } from '@domain/categories';
import { apiGet } from '../../../lib/api-client';

export const CATEGORIES_KEY = ['/api/categories'] as const;

/** GET /api/categories: every category, by name. */
export async function fetchCategories(signal?: AbortSignal): Promise<Category[]> {
  return z.array(categorySchema).parse(await apiGet('/api/categories', signal));
}

export const categoriesQueryOptions = queryOptions({
  queryKey: CATEGORIES_KEY,
  queryFn: ({ signal }) => fetchCategories(signal),
});

export function useCategories() {
  return useQuery(categoriesQueryOptions);
}
