/**
 * Tooltips open after 700 ms; moving between triggers within 300 ms skips the delay
 * (docs/rules/screens-shared.md, Client behaviour).
 */
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;
