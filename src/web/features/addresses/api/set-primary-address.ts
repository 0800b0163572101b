import { useMutation, useQueryClient } from '@tanstack/react-query';
import { addressSchema, type Address } from '@domain/addresses';
import { apiSend } from '../../../lib/api-client';
import { toastMutationError } from '../../../lib/mutation-errors';
import { invalidateAfterAddressChange } from './invalidate-addresses';

/** POST /api/addresses/{id}/set-primary with no body (and so no JSON content type). */
export async function setPrimaryAddress(id: string): Promise<Address> {
  return addressSchema.parse(await apiSend('POST', `/api/addresses/${encodeURIComponent(id)}/set-primary`));
}

/** 'Failed to set primary address' (docs/rules/screens-buyer.md, Account pages). */
export function useSetPrimaryAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setPrimaryAddress,
    onSuccess: () => invalidateAfterAddressChange(queryClient),
    onError: (error) =>
      toastMutationError(error, 'Failed to set primary address', { appendServerMessage: true }),
  });
}
