import { useMutation, useQueryClient } from '@tanstack/react-query';
import { categorySchema, type Category } from '@domain/categories';
import { apiSend } from '../../../lib/api-client';
import { invalidateAdminData } from './admin-data';

/** POST /api/categories {name}. */
export async function createCategory(name: string): Promise<Category> {
  return categorySchema.parse(await apiSend('POST', '/api/categories', { name }));
}

/** PATCH /api/categories/{id} {name}: renames it on its products too. */
export async function renameCategory(id: string, name: string): Promise<Category> {
  return categorySchema.parse(await apiSend('PATCH', `/api/categories/${encodeURIComponent(id)}`, { name }));
}

/** DELETE /api/categories/{id}: refused while products use it. */
export async function deleteCategory(id: string): Promise<void> {
  await apiSend('DELETE', `/api/categories/${encodeURIComponent(id)}`);
}

interface Callbacks<T> {
  onDone: (result: T) => void;
  onFailed: (error: unknown) => void;
}

/** The catalog's category list (GET /api/categories) and the products change too: all are read again. */
function useCategoryMutation<V, T>(mutationFn: (variables: V) => Promise<T>, callbacks: Callbacks<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (result) => {
      callbacks.onDone(result);
      return Promise.all([
        invalidateAdminData(queryClient),
        queryClient.invalidateQueries({ queryKey: ['/api/products'] }),
      ]);
    },
    onError: (error) => callbacks.onFailed(error),
  });
}

export function useCreateCategory(callbacks: Callbacks<Category>) {
  return useCategoryMutation((name: string) => createCategory(name), callbacks);
}

export function useRenameCategory(callbacks: Callbacks<Category>) {
  return useCategoryMutation(
    ({ id, name }: { id: string; name: string }) => renameCategory(id, name),
    callbacks,
  );
}

export function useDeleteCategory(callbacks: Callbacks<void>) {
  return useCategoryMutation((id: string) => deleteCategory(id), callbacks);
}
