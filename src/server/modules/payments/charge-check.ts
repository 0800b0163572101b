import { parseCents, type Cents } from '../../../domain/money';
import type { PaymentRow } from './payments.queries';

export const AMOUNT_MISMATCH_MESSAGE =
  'The amount charged does not match this checkout. Please contact support.';
export const PAYMENT_CANCELLED_MESSAGE =
  'This payment was cancelled because it was not completed in time. Please check out again.';

/**
 * What the provider charged is what the payment asked for, in the same currency
 * (docs/rules/money.md, Payments). The confirm call and the webhook both ask it before any order
 * is made.
 */
export function chargeMatches(payment: PaymentRow, charged: { amount: Cents; currency: string }): boolean {
  return charged.amount === parseCents(payment.amount) && charged.currency === payment.currency;
}
