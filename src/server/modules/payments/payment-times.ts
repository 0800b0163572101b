/**
 * How long the parts of a payment live (docs/decisions/0013-money-movement.md, Payments and refunds).
 *
 * The checkout priced when the payment starts (its quote) is honoured for an hour: a payment that
 * arrives later is priced again before it makes orders. A payment still open a day after it started
 * is abandoned: it is cancelled at the provider by the timer, so it can never be paid any more.
 */
export const QUOTE_VALID_MS = 60 * 60 * 1000;
export const ABANDONED_PAYMENT_MS = 24 * 60 * 60 * 1000;
