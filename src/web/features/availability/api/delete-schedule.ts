import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { toastMutationError } from '../../../lib/mutation-errors';
import { SCHEDULES_KEY } from './get-schedules';

/** DELETE /api/availability/schedules/{id} -> 204. */
export async function deleteSchedule(id: string): Promise<void> {
  await apiRequest('DELETE', `/api/availability/schedules/${encodeURIComponent(id)}`);
}

/** The spec names no text for this failure; it follows the pattern of 'Failed to add schedule'. */
export function useDeleteSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSchedule,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SCHEDULES_KEY }),
    onError: (error) => toastMutationError(error, 'Failed to remove schedule', { appendServerMessage: true }),
  });
}
