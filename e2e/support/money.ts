/**
 * Money as every screen shows it: "$1,250.00" (docs/rules/screens-shared.md, Client behaviour). Written
 * out here rather than imported from src/domain, so a browser test checks the screen against an
 * independent spelling of the rule.
 */
export function money(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const whole = Math.floor(Math.abs(cents) / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}$${whole}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;
}

/** "1250.00" → 125000. */
export function cents(price: string): number {
  return Math.round(Number.parseFloat(price) * 100);
}
