import { useMutation } from '@tanstack/react-query';
import { addressValidationSchema, type AddressValidateBody, type AddressValidation } from '@domain/addresses';
import { apiSend } from '../../../lib/api-client';

/**
 * POST /api/addresses/validate -> 200 the normalised fields and coordinates. An unknown ZIP is
 * the answer status 'unavailable', not an error
 * (docs/rules/catalog-and-orders.md, Addresses, availability and slots); the form decides what to show.
 */
export async function validateAddress(body: AddressValidateBody): Promise<AddressValidation> {
  return addressValidationSchema.parse(await apiSend('POST', '/api/addresses/validate', body));
}

export function useValidateAddress() {
  return useMutation({ mutationFn: validateAddress });
}
