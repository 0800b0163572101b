import { useMutation, useQueryClient } from '@tanstack/react-query';
import { addressSchema, type Address, type AddressBody } from '@domain/addresses';
import { apiSend } from '../../../lib/api-client';
import { toastMutationError } from '../../../lib/mutation-errors';
import { invalidateAfterAddressChange } from './invalidate-addresses';

/** POST /api/addresses -> 201 the saved address (coordinates from the server's geocoder). */
export async function createAddress(body: AddressBody): Promise<Address> {
  return addressSchema.parse(await apiSend('POST', '/api/addresses', body));
}

/**
 * 'Failed to create address', with the server's reason such as the 20-address limit
 * (docs/rules/screens-buyer.md, Account pages).
 */
export function useCreateAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAddress,
    onSuccess: () => invalidateAfterAddressChange(queryClient),
    onError: (error) => toastMutationError(error, 'Failed to create address', { appendServerMessage: true }),
  });
}
