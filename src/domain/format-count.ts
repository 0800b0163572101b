/**
 * "1,250": a whole number with thousands separators, as `toLocaleString('en-US')` writes it, grouped
 * by hand. The browser sets up its number formatting on the first `toLocaleString` of a page, a
 * task of its own in the middle of a dashboard's first load (docs/decisions/0014-first-load.md,
 * Counts grouped by hand). Other numbers are left to `toLocaleString`.
 */
export function formatCount(value: number): string {
  if (!Number.isSafeInteger(value)) return value.toLocaleString('en-US');
  const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return value < 0 ? `-${digits}` : digits;
}
