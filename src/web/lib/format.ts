import { formatMoney } from '@domain/money';
import {
  DEFAULT_MARKETPLACE_TIME_ZONE,
  formatDateTime as formatDateTimeIn,
  formatMonthYear as formatMonthYearIn,
  formatPickupTime as formatPickupTimeIn,
  isKnownTimeZone,
  zoneAbbreviation,
  zoneName,
  type Instant,
} from '@domain/marketplace-time';

/**
 * Money as shown to people: "$1,250.00", with thousands separators
 * (docs/rules/screens-shared.md, Client behaviour); the one formatter of domain/money.ts. Accepts a
 * decimal string or a number of dollars.
 */
export function formatPrice(value: number | string): string {
  return formatMoney(value);
}

let cachedTimeZone: string | undefined;

/** On the server, which has no index.html to read: the zone it writes there (MARKETPLACE_TZ). */
export function setMarketplaceTimeZone(timeZone: string): void {
  // Called for every page rendered: checking a zone builds an Intl formatter, so only a new one is.
  if (timeZone === cachedTimeZone) return;
  cachedTimeZone = isKnownTimeZone(timeZone) ? timeZone : DEFAULT_MARKETPLACE_TIME_ZONE;
}

/**
 * The marketplace time zone (docs/rules/running.md, Dates and times): the server writes
 * MARKETPLACE_TZ into index.html; without it (a test page) the default. Never the browser's own.
 */
export function marketplaceTimeZone(): string {
  if (cachedTimeZone) return cachedTimeZone;
  const content =
    typeof document === 'undefined'
      ? null
      : document.querySelector('meta[name="marketplace-time-zone"]')?.getAttribute('content');
  cachedTimeZone = content && isKnownTimeZone(content) ? content : DEFAULT_MARKETPLACE_TIME_ZONE;
  return cachedTimeZone;
}

/** "Nov 23, 2026 · 10:00 AM CST" in the marketplace time zone; null for no time. */
export function formatDateTime(instant: Instant | null | undefined): string | null {
  return formatDateTimeIn(instant, marketplaceTimeZone());
}

/** "Mon, Nov 23 · 10:00 AM CST": a pickup time as its slot was labelled, with the zone. */
export function formatPickupTime(instant: Instant | null | undefined): string | null {
  return formatPickupTimeIn(instant, marketplaceTimeZone());
}

/** "November 2026". */
export function formatMonthYear(instant: Instant | null | undefined): string | null {
  return formatMonthYearIn(instant, marketplaceTimeZone());
}

/** "Central Time (CST)": what the pickup times are in, said once next to them. */
export function marketplaceZoneText(now: Date = new Date()): string {
  const zone = marketplaceTimeZone();
  return `${zoneName(zone)} (${zoneAbbreviation(now.getTime(), zone)})`;
}

/** Ratings and distances show 1 decimal (docs/rules/screens-shared.md, Client behaviour). */
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
