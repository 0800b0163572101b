/** Money as shown to people: "$12.50" (spec buyer §9: 2 decimals). Accepts a decimal string. */
export function formatPrice(value: number | string): string {
  const amount = typeof value === 'number' ? value : Number.parseFloat(value);
  return `$${(Number.isFinite(amount) ? amount : 0).toFixed(2)}`;
}

/** Ratings and distances show 1 decimal (spec buyer §9). */
export function formatOneDecimal(value: number): string {
  return value.toFixed(1);
}

export function formatMilesAway(miles: number): string {
  return `${formatOneDecimal(miles)} miles away`;
}

/** Initials for an avatar without a picture: "Ada Lovelace" -> "AL"; falls back to the email's first letter. */
export function initialsOf(firstName: string | null, lastName: string | null, fallback: string): string {
  const initials = `${firstName?.trim().charAt(0) ?? ''}${lastName?.trim().charAt(0) ?? ''}`;
  return (initials || fallback.charAt(0) || '?').toUpperCase();
}

/** "1 Main St, Apt 2, Springfield, IL 62701": any address-shaped value on one line. */
export function formatAddressLine(address: {
  addressLine1: string;
  addressLine2?: string | null;
  city: string;
  state: string;
  zipCode: string;
}): string {
  return [address.addressLine1, address.addressLine2, `${address.city}, ${address.state} ${address.zipCode}`]
    .filter((part): part is string => Boolean(part && part.trim()))
    .join(', ');
}
