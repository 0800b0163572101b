import { z } from 'zod';
import { moneyStringSchema } from './catalog';

/**
 * Payouts to sellers and drivers and the platform's ledger (docs/decisions/0013-money-movement.md,
 * Transfers and the ledger): what a finished order owes each party and where its transfer stands.
 */
export const PAYOUT_STATUSES = [
  'owed',
  'pending',
  'paid',
  'failed',
  'refused',
  'reversed',
  'cancelled',
] as const;
export const payoutStatusSchema = z.enum(PAYOUT_STATUSES);
export type PayoutStatus = z.infer<typeof payoutStatusSchema>;

/** The words a screen shows for each status. */
export const PAYOUT_STATUS_LABEL: Readonly<Record<PayoutStatus, string>> = {
  owed: 'Owed',
  pending: 'Sending',
  paid: 'Paid out',
  failed: 'Failed',
  refused: 'Refused',
  reversed: 'Reversed',
  cancelled: 'Cancelled',
};

export const payoutViewSchema = z.object({
  id: z.string(),
  orderId: z.string(),
  orderNumber: z.string(),
  /** The party paid: the order's seller or its driver. */
  kind: z.enum(['seller', 'driver']),
  amount: moneyStringSchema,
  status: payoutStatusSchema,
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  reversedAt: z.string().nullable(),
});
export type PayoutView = z.infer<typeof payoutViewSchema>;

/** GET /api/payouts: the caller's payouts, newest first, and the sums per state. */
export const myPayoutsSchema = z.object({
  /** Earned while the payout account was not ready, or still being sent. */
  owed: moneyStringSchema,
  paidOut: moneyStringSchema,
  reversed: moneyStringSchema,
  payouts: z.array(payoutViewSchema),
});
export type MyPayouts = z.infer<typeof myPayoutsSchema>;

export const failedPayoutSchema = payoutViewSchema.extend({
  userName: z.string(),
  attempts: z.number().int(),
  /** Refusals by the provider in a row; at five the payout is refused until an admin retries it. */
  refusals: z.number().int(),
  /** When the retry job tries a failed payout again; null once refused for good. */
  nextAttemptAt: z.string().nullable(),
  lastError: z.string().nullable(),
});
export type FailedPayout = z.infer<typeof failedPayoutSchema>;

export const PAYOUT_NOT_FOUND = 'Payout not found';
export const PAYOUT_NOT_RETRYABLE = 'Only a failed or refused payout can be sent again.';

/** GET /api/admin/payouts: the platform's balance and the payouts that failed or keep failing. */
export const adminPayoutsSchema = z.object({
  /**
   * Fees earned on finished orders less fees given back by refunds, the provider's fees, disputes
   * and losses (docs/decisions/0018-money-against-stripe.md): negative when they exceed the fees.
   */
  platformBalance: z.string().regex(/^-?\d+\.\d{2}$/),
  /** Owed to sellers and drivers and not sent yet. */
  owedPayouts: moneyStringSchema,
  failed: z.array(failedPayoutSchema),
});
export type AdminPayouts = z.infer<typeof adminPayoutsSchema>;

/** POST /api/admin/orders/{id}/refund: our addition, a full refund of a delivered or completed order. */
export const refundFinishedOrderBodySchema = z.object({
  reason: z
    .string()
    .trim()
    .min(1, 'Please give a reason for the refund.')
    .max(500, 'Keep the reason under 500 characters.'),
});

export const ORDER_ALREADY_REFUNDED = 'This order has already been refunded.';
export const ORDER_NOT_FINISHED_FOR_REFUND =
  'Only a delivered or completed order is refunded here. Cancel an order that is not finished instead.';

/** Cells a spreadsheet would run as a formula get a leading apostrophe (CSV injection). */
export function csvCell(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
