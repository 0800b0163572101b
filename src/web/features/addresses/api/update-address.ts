import { useMutation, useQueryClient } from '@tanstack/react-query';
import { addressSchema, type Address, type AddressPatchBody } from '@domain/addresses';
import { apiSend } from '../../../lib/api-client';
import { toastMutationError } from '../../../lib/mutation-errors';
import { invalidateAfterAddressChange } from './invalidate-addresses';

export interface UpdateAddressInput {
  id: string;
  body: AddressPatchBody;
}

/** PATCH /api/addresses/{id}: a changed address is located again by the server. */
export async function updateAddress({ id, body }: UpdateAddressInput): Promise<Address> {
  return addressSchema.parse(await apiSend('PATCH', `/api/addresses/${encodeURIComponent(id)}`, body));
}

/** 'Failed to update address' (docs/rules/screens-buyer.md, Account pages). */
export function useUpdateAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAddress,
    onSuccess: () => invalidateAfterAddressChange(queryClient),
    onError: (error) => toastMutationError(error, 'Failed to update address', { appendServerMessage: true }),
  });
}
