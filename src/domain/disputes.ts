import { z } from 'zod';
import { moneyStringSchema } from './catalog';

/**
 * Chargebacks (docs/decisions/0018-money-against-stripe.md, Disputes): Stripe's dispute statuses.
 * `warning_*` are inquiries before a chargeback; `won`, `lost`, `warning_closed` and `prevented`
 * are final.
 */
export const DISPUTE_STATUSES = [
  'warning_needs_response',
  'warning_under_review',
  'warning_closed',
  'needs_response',
  'under_review',
  'won',
  'lost',
  'prevented',
] as const;
export const disputeStatusSchema = z.enum(DISPUTE_STATUSES);
export type DisputeStatus = z.infer<typeof disputeStatusSchema>;

const FINAL: ReadonlySet<DisputeStatus> = new Set(['won', 'lost', 'warning_closed', 'prevented']);

/**
 * Closed with the money gone to the card holder: lost, or prevented (Stripe's dispute prevention,
 * API 2025-08-27: a Visa RDR "resolution" refunds the buyer before a chargeback is filed). Both are
 * handled as a refund of the disputed amount.
 */
export function isDisputeLost(status: DisputeStatus): boolean {
  return status === 'lost' || status === 'prevented';
}

/** Still open: the evidence deadline runs and the order's payouts are held. */
export function isDisputeOpen(status: DisputeStatus): boolean {
  return !FINAL.has(status);
}

/**
 * The dispute on an order's payment, in the order's JSON (`Order.dispute`). `amount` is the whole
 * disputed amount of the payment (one payment may pay several orders). A driver, who never sees
 * prices (docs/rules/accounts.md, Roles and permissions), gets the status alone.
 */
export const orderDisputeSchema = z.object({
  status: disputeStatusSchema,
  amount: moneyStringSchema.optional(),
  /** ISO date-time; null when the provider set none. Absent for a driver. */
  evidenceDueBy: z.string().nullable().optional(),
});
export type OrderDispute = z.infer<typeof orderDisputeSchema>;

/** GET /api/admin/disputes: one dispute, open ones first. */
export const adminDisputeSchema = z.object({
  id: z.string(),
  paymentId: z.string(),
  /** The orders the disputed payment paid for (one per seller). */
  orderNumbers: z.array(z.string()),
  orderIds: z.array(z.string()),
  amount: moneyStringSchema,
  /** The dispute fee the provider withdrew; 0.00 before the funds are withdrawn. */
  fee: moneyStringSchema,
  currency: z.string(),
  reason: z.string(),
  status: disputeStatusSchema,
  isOpen: z.boolean(),
  evidenceDueBy: z.string().nullable(),
  fundsWithdrawnAt: z.string().nullable(),
  fundsReinstatedAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  createdAt: z.string(),
  provider: z.string(),
  providerDisputeId: z.string(),
  /** Stripe's dashboard page of the dispute; null for another provider. */
  dashboardUrl: z.string().nullable(),
});
export type AdminDispute = z.infer<typeof adminDisputeSchema>;

export const adminDisputesSchema = z.object({ disputes: z.array(adminDisputeSchema) });
