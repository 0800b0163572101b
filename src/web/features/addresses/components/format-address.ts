import type { Address } from '@domain/addresses';

/** "Springfield, IL 62701" */
export function formatCityLine(address: Pick<Address, 'city' | 'state' | 'zipCode'>): string {
  return `${address.city}, ${address.state} ${address.zipCode}`;
}

/** "100 Main St, Apt 2, Springfield, IL 62701", for confirmations and toasts. */
export function formatAddressOneLine(
  address: Pick<Address, 'addressLine1' | 'addressLine2' | 'city' | 'state' | 'zipCode'>,
): string {
  return [address.addressLine1, address.addressLine2, formatCityLine(address)].filter(Boolean).join(', ');
}
