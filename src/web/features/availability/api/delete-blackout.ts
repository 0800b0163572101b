import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { toastMutationError } from '../../../lib/mutation-errors';
import { BLACKOUTS_KEY } from './get-blackouts';

/** DELETE /api/availability/blackouts/{id} -> 204. */
export async function deleteBlackout(id: string): Promise<void> {
  await apiRequest('DELETE', `/api/availability/blackouts/${encodeURIComponent(id)}`);
}

/** The spec names no text for this failure; it follows the pattern of 'Failed to add blackout date'. */
export function useDeleteBlackout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteBlackout,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: BLACKOUTS_KEY }),
    onError: (error) =>
      toastMutationError(error, 'Failed to remove blackout date', { appendServerMessage: true }),
  });
}
