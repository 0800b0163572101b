import type { Db } from '../../db/client';
import { formatCents, parseCents } from '../../../domain/money';
import { findHoldingDispute, findRefundBlockingDispute, listDisputeLosses } from './disputes.queries';

/**
 * Whether an order's payouts are held by a dispute on its payment
 * (docs/decisions/0018-money-against-stripe.md, Disputes): while the dispute is open, and once lost
 * until the sellers' and drivers' share has been taken back, nothing more goes out. A won or
 * closed dispute lets the retry job pay them.
 */
export function hasOpenDispute(db: Db, orderId: string): Promise<boolean> {
  return findHoldingDispute(db, orderId);
}

/**
 * Whether a refund of the payment must wait: its charge is disputed and the funds withdrawn, which
 * Stripe refuses to refund (docs/decisions/0022-money-in-combinations.md, A refund while the payment
 * is disputed).
 */
export function isRefundHeldByDispute(db: Db, paymentId: string): Promise<boolean> {
  return findRefundBlockingDispute(db, paymentId);
}

/** Lost disputes that took money already refunded: the platform's losses, as the admin's Losses table lists them. */
export async function listDisputeLossesForAdmin(db: Db, limit: number) {
  const rows = await listDisputeLosses(db, limit);
  return rows.map((row) => ({
    id: `dispute-loss-${row.id}`,
    orderId: row.orderId,
    orderNumber: row.orderNumbers,
    kind: 'dispute' as const,
    userName: [row.firstName, row.lastName].filter(Boolean).join(' ') || 'Unnamed user',
    amount: formatCents(parseCents(row.amount)),
    providerMessage: `Lost a dispute of $${formatCents(parseCents(row.disputeAmount))} (${row.reason}) after $${formatCents(parseCents(row.amount))} had been refunded`,
    at: row.at.toISOString(),
  }));
}
