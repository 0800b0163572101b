import { useMutation, useQueryClient } from '@tanstack/react-query';
import { blackoutSchema, type Blackout, type BlackoutBody } from '@domain/availability';
import { apiSend } from '../../../lib/api-client';
import { toastMutationError } from '../../../lib/mutation-errors';
import { BLACKOUTS_KEY } from './get-blackouts';

/** POST /api/availability/blackouts {startDate, endDate, reason} -> 201 the new range. */
export async function addBlackout(body: BlackoutBody): Promise<Blackout> {
  return blackoutSchema.parse(await apiSend('POST', '/api/availability/blackouts', body));
}

/**
 * 'Failed to add blackout date', with the server's reason when it gave one
 * (docs/rules/screens-buyer.md, Account pages).
 */
export function useAddBlackout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addBlackout,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: BLACKOUTS_KEY }),
    onError: (error) =>
      toastMutationError(error, 'Failed to add blackout date', { appendServerMessage: true }),
  });
}
