/**
 * Money and rates (docs/rules/money.md, Fees and commission): integer cents inside the code,
 * decimal strings with 2 places at the edges, rates with 4 places, rounding half up to the cent.
 * Rates are held as integer basis points (1 bp = 0.0001, so 0.0600 is 600), which keeps every
 * product `cents × bp` an exact integer. Pure: no floating-point arithmetic on money anywhere.
 */

/** Cents are integers; amounts here stay far below 2^53 (numeric(10,2) holds at most ~10^10 cents). */
export type Cents = number;
/** A rate in basis points: 10000 is 1.0000, 600 is 0.0600. */
export type BasisPoints = number;

export const BASIS_POINTS_PER_UNIT = 10_000;

const DECIMAL_PATTERN = /^([+-])?(\d+)(?:\.(\d*))?$/;

/**
 * Parses a decimal string ("12", "12.5", "12.345", "-3.10") to a whole number of `10^-places` units,
 * rounding half up (away from zero for negatives: -0.005 → -1 cent, like the SQL numeric cast).
 */
function parseScaled(text: string, places: number, what: string): number {
  const match = DECIMAL_PATTERN.exec(text.trim());
  if (!match) throw new RangeError(`Not a decimal ${what}: "${text}"`);
  const [, sign, whole = '0', fraction = ''] = match;
  const kept = fraction.slice(0, places).padEnd(places, '0');
  const next = fraction.charAt(places);
  let units = Number(whole) * 10 ** places + Number(kept || '0');
  if (next !== '' && Number(next) >= 5) units += 1;
  if (!Number.isSafeInteger(units)) throw new RangeError(`Decimal ${what} is too large: "${text}"`);
  return sign === '-' && units !== 0 ? -units : units;
}

function formatScaled(units: number, places: number, what: string): string {
  if (!Number.isSafeInteger(units)) throw new RangeError(`Not a whole number of ${what}: ${units}`);
  const sign = units < 0 ? '-' : '';
  const digits = String(Math.abs(units)).padStart(places + 1, '0');
  return `${sign}${digits.slice(0, -places)}.${digits.slice(-places)}`;
}

/** "12.50" → 1250; "0.005" → 1 (half up). Throws RangeError on anything that is not a decimal. */
export function parseCents(text: string): Cents {
  return parseScaled(text, 2, 'amount');
}

/** 1250 → "12.50"; -5 → "-0.05". */
export function formatCents(cents: Cents): string {
  return formatScaled(cents, 2, 'cents');
}

/** "0.0600" → 600; "0.10" → 1000; "0.00005" → 1 (half up). */
export function parseRate(text: string): BasisPoints {
  return parseScaled(text, 4, 'rate');
}

/** 600 → "0.0600". */
export function formatRate(basisPoints: BasisPoints): string {
  return formatScaled(basisPoints, 4, 'basis points');
}

/** `a / b` rounded half up, for a ≥ 0 and b > 0 (integers). */
function divideHalfUp(a: number, b: number): number {
  const quotient = Math.floor(a / b);
  const remainder = a - quotient * b;
  return remainder * 2 >= b ? quotient + 1 : quotient;
}

/**
 * cents × rate, rounded half up to the cent (docs/rules/money.md, Fees and commission):
 * 1200.00 × 0.0600 = 72.00, 0.25 × 0.1000 = 0.03. Negative amounts round symmetrically (away from
 * zero at the half).
 */
export function applyRate(cents: Cents, rate: BasisPoints): Cents {
  if (!Number.isSafeInteger(cents) || !Number.isSafeInteger(rate))
    throw new RangeError('applyRate takes whole cents and whole basis points');
  const product = Math.abs(cents) * Math.abs(rate);
  if (!Number.isSafeInteger(product)) throw new RangeError('Amount × rate is too large');
  const rounded = divideHalfUp(product, BASIS_POINTS_PER_UNIT);
  return cents < 0 !== rate < 0 && rounded !== 0 ? -rounded : rounded;
}

/**
 * `cents × part / whole`, rounded half up to the cent, for 0 ≤ part ≤ whole (whole > 0): the share
 * of an amount that a part of a total is (docs/decisions/0018-money-against-stripe.md, Refunds).
 */
export function shareOf(cents: Cents, part: Cents, whole: Cents): Cents {
  if (
    ![cents, part, whole].every(Number.isSafeInteger) ||
    cents < 0 ||
    part < 0 ||
    whole <= 0 ||
    part > whole
  )
    throw new RangeError('shareOf takes whole cents with 0 ≤ part ≤ whole and whole > 0');
  const product = cents * part;
  if (!Number.isSafeInteger(product)) throw new RangeError('Amount × part is too large');
  return divideHalfUp(product, whole);
}

/** Sum of cents, exact. */
export function sumCents(values: Iterable<Cents>): Cents {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

/** "$1,250.00" for display; "-$5.00" for negatives. */
export function formatUsd(cents: Cents): string {
  const plain = formatCents(Math.abs(cents));
  const [whole = '0', fraction = '00'] = plain.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${cents < 0 ? '-' : ''}$${grouped}.${fraction}`;
}

/**
 * The one money formatter of every screen (docs/rules/screens-shared.md, Client behaviour): "$1,250.00",
 * with thousands separators and 2 decimals. Takes a decimal string as the API answers it, or a
 * number of dollars (the cart's sums, kept in cents and divided), rounded to the cent first. What
 * is not an amount shows as "$0.00" rather than "NaN".
 */
export function formatMoney(value: number | string | null | undefined): string {
  let cents = 0;
  if (typeof value === 'number') {
    if (Number.isFinite(value) && Number.isSafeInteger(Math.round(value * 100)))
      cents = Math.round(value * 100);
  } else if (typeof value === 'string') {
    try {
      cents = parseCents(value);
    } catch {
      cents = 0;
    }
  }
  return formatUsd(cents);
}
