import { z } from 'zod';
import { moneyStringSchema } from './catalog';

/**
 * Where a refund stands (docs/decisions/0013-money-movement.md, Payments and refunds): Stripe's
 * Refund statuses. `pending` also covers a refund whose call to the provider has not completed yet.
 */
export const REFUND_STATUSES = ['pending', 'succeeded', 'failed', 'requires_action', 'canceled'] as const;
export const refundStatusSchema = z.enum(REFUND_STATUSES);
export type RefundStatus = z.infer<typeof refundStatusSchema>;

/** GET /api/admin/refunds: one refund that failed or still waits. */
export const refundNeedingAttentionSchema = z.object({
  id: z.string(),
  paymentId: z.string(),
  /** The cancelled order's number; null for a refund of a whole payment that made no order. */
  orderNumber: z.string().nullable(),
  amount: moneyStringSchema,
  /** Why the money goes back (the cancellation, the sold-out item, the changed price). */
  reason: z.string(),
  status: refundStatusSchema,
  /** The provider's reason of a failed refund (e.g. `expired_or_canceled_card`). */
  failureReason: z.string().nullable(),
  /** The last error of a call to the provider that did not complete. */
  lastError: z.string().nullable(),
  attempts: z.number().int(),
  lastAttemptAt: z.string().nullable(),
  /** Since when the buyer waits for this money. */
  createdAt: z.string(),
});
export type RefundNeedingAttention = z.infer<typeof refundNeedingAttentionSchema>;

export const refundsNeedingAttentionSchema = z.object({
  refunds: z.array(refundNeedingAttentionSchema),
});
