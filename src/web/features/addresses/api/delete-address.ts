import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { toastMutationError } from '../../../lib/mutation-errors';
import { invalidateAfterAddressChange } from './invalidate-addresses';

/** DELETE /api/addresses/{id} -> 204; deleting the primary makes the newest remaining one primary. */
export async function deleteAddress(id: string): Promise<void> {
  await apiRequest('DELETE', `/api/addresses/${encodeURIComponent(id)}`);
}

/** 'Failed to delete address' (docs/rules/screens-buyer.md, Account pages). */
export function useDeleteAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAddress,
    onSuccess: () => invalidateAfterAddressChange(queryClient),
    onError: (error) => toastMutationError(error, 'Failed to delete address', { appendServerMessage: true }),
  });
}
