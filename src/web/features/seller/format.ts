import { formatUsd, parseCents, type BasisPoints } from '@domain/money';

/** "1250.00" → "$1,250.00" (docs/product-rules.md, Client behaviour: $ and 2 decimals). */
export function formatAmount(text: string): string {
  return formatUsd(parseCents(text));
}

/** 600 basis points → "6%", 650 → "6.5%", 1 → "0.01%". */
export function formatPercent(rate: BasisPoints): string {
  const percent = rate / 100;
  return `${Number.isInteger(percent) ? percent : percent.toFixed(2).replace(/0+$/, '')}%`;
}

/** "2026-11-16" → "Nov 16" for the chart's weeks. */
export function formatWeek(weekStart: string): string {
  const [year, month, day] = weekStart.split('-').map(Number);
  const date = new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1));
  return date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}
