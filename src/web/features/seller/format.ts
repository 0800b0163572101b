import { formatUsd, parseCents, type BasisPoints } from '@domain/money';

/** "1250.00" → "$1,250.00" (docs/rules/screens-shared.md, Client behaviour: $ and 2 decimals). */
export function formatAmount(text: string): string {
  return formatUsd(parseCents(text));
}

/** 600 basis points → "6%", 650 → "6.5%", 1 → "0.01%". */
export function formatPercent(rate: BasisPoints): string {
  const percent = rate / 100;
  return `${Number.isInteger(percent) ? percent : percent.toFixed(2).replace(/0+$/, '')}%`;
}
