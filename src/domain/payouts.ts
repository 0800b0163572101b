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
  /**
   * What the provider refused five times in a row to give back to the payee after a failed refund
   * (docs/decisions/0022-money-in-combinations.md, Transfers and their keys); null when nothing is.
   */
  refusedShare: z.string().nullable(),
});
export type FailedPayout = z.infer<typeof failedPayoutSchema>;

export const PAYOUT_NOT_FOUND = 'Payout not found';
export const PAYOUT_NOT_RETRYABLE =
  'Only a failed or refused payout, or a share refused while given back, can be sent again.';

/**
 * GET /api/admin/payouts, `losses`: a share the provider refused to give back, or money already
 * refunded that a lost dispute took again (docs/decisions/0022-money-in-combinations.md); the
 * platform bore it.
 */
export const reversalLossSchema = z.object({
  id: z.string(),
  orderId: z.string(),
  /** The order's number; for a dispute, the numbers of its payment's orders. */
  orderNumber: z.string(),
  /** Who was paid: the seller or driver whose share stayed with them, or the buyer through a dispute. */
  kind: z.enum(['seller', 'driver', 'dispute']),
  userName: z.string(),
  amount: moneyStringSchema,
  /** The provider's message when it refused the reversal, or what the dispute took. */
  providerMessage: z.string().nullable(),
  at: z.string(),
});

/** GET /api/admin/payouts: the platform's balance and the payouts that failed or keep failing. */
export const adminPayoutsSchema = z.object({
  /**
   * Fees earned on finished orders less fees given back by refunds, the provider's fees, dispute
   * fees and losses the platform bore (docs/decisions/0018-money-against-stripe.md): negative when
   * they exceed the fees.
   */
  platformBalance: z.string().regex(/^-?\d+\.\d{2}$/),
  /** Owed to sellers and drivers and not sent yet. */
  owedPayouts: moneyStringSchema,
  failed: z.array(failedPayoutSchema),
  /** Shares of refunded orders that could not be taken back: losses borne by the platform, newest first. */
  losses: z.array(reversalLossSchema),
});
export type AdminPayouts = z.infer<typeof adminPayoutsSchema>;

/**
 * POST /api/admin/orders/{id}/refund: our addition, a refund of a delivered or completed order, in
 * whole or in part (docs/decisions/0018-money-against-stripe.md, Refunds): neither `amount` nor
 * `items` refunds everything not refunded yet; `amount` that much; `items` their price × quantity.
 */
export const refundFinishedOrderBodySchema = z.strictObject({
  reason: z
    .string()
    .trim()
    .min(1, 'Please give a reason for the refund.')
    .max(500, 'Keep the reason under 500 characters.'),
  amount: z
    .string()
    .trim()
    .regex(/^\d{1,8}(\.\d{1,2})?$/, 'Give the amount in dollars and cents, like 12.34.')
    .optional(),
  items: z
    .array(
      z.strictObject({
        orderItemId: z.string().uuid('Choose items of this order.'),
        quantity: z.number().int().min(1, 'Refund at least one of an item.'),
      }),
    )
    .min(1, 'Choose at least one item to refund.')
    .max(100)
    .optional(),
});
export type RefundFinishedOrderBody = z.infer<typeof refundFinishedOrderBodySchema>;

export const ORDER_ALREADY_REFUNDED = 'This order has already been refunded in full.';
export const ORDER_NOT_FINISHED_FOR_REFUND =
  'Only a delivered, completed or cancelled order is refunded here. Cancel an order that is not finished instead.';
export const REFUND_AMOUNT_OR_ITEMS = 'Refund either an amount or items, not both.';
export const REFUND_AMOUNT_POSITIVE = 'The refund must be more than $0.00.';
export const REFUND_ITEM_UNKNOWN = 'Choose items of this order.';
/** An admin's refund while the payment's dispute holds its funds (409; docs/decisions/0022-money-in-combinations.md). */
export const PAYMENT_DISPUTED_REFUND =
  'This payment is disputed: it can be refunded once the dispute is decided.';

/** A refund larger than what is left of the order (409). */
export function refundExceedsMessage(left: string): string {
  return `Only $${left} of this order is left to refund.`;
}

/** An item refunded beyond its quantity (400). */
export function refundItemQuantityMessage(name: string, quantity: number): string {
  return `Only ${quantity} of ${name} ${quantity === 1 ? 'was' : 'were'} ordered.`;
}

/** More of an item than is left to refund of it (409): each item is refunded at most as often as it was bought. */
export function refundItemsLeftMessage(name: string, left: number): string {
  if (left <= 0) return `All of ${name} has already been refunded.`;
  return `Only ${left} of ${name} ${left === 1 ? 'is' : 'are'} left to refund.`;
}

/** Cells a spreadsheet would run as a formula get a leading apostrophe (CSV injection). */
export function csvCell(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
