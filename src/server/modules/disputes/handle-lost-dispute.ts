import type { Db } from '../../db/client';
import { parseCents, type Cents } from '../../../domain/money';
import { claimDisputeOutcome, listOrdersOfDisputedPayment, type DisputeRow } from './disputes.queries';

/** One order's part of a lost dispute, taken back by the same rules as a refund of that amount. */
export interface OrderShareTakeBack {
  orderId: string;
  amountCents: Cents;
  disputeId: string;
  now: Date;
}

/**
 * The payouts module's operation that takes an order's lost amount back from its seller and driver
 * in proportion (reversing what went out, cancelling or shrinking what did not) and gives back the
 * platform fee's share, inside the caller's transaction (docs/decisions/0018-money-against-stripe.md,
 * Disputes; Refunds).
 */
export type TakeBackOrderShare = (tx: Db, share: OrderShareTakeBack) => Promise<void>;

/**
 * Splits a lost amount over a payment's orders in proportion to what each cost (largest remainder,
 * so the parts add up to the amount exactly); no order gives more than its total.
 */
export function splitLostAmount(amount: Cents, orderTotals: readonly Cents[]): Cents[] {
  const whole = orderTotals.reduce((sum, total) => sum + total, 0);
  if (whole <= 0) return orderTotals.map(() => 0);
  const lost = Math.min(amount, whole);
  const exact = orderTotals.map((total) => (lost * total) / whole);
  const parts = exact.map((value) => Math.floor(value));
  let left = lost - parts.reduce((sum, part) => sum + part, 0);
  const byRemainder = exact
    .map((value, index) => ({ index, remainder: value - Math.floor(value) }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of byRemainder) {
    if (left <= 0) break;
    parts[index] = (parts[index] ?? 0) + 1;
    left -= 1;
  }
  return parts;
}

/**
 * A lost dispute is handled as a refund of the lost amount (docs/decisions/0018-money-against-stripe.md,
 * Disputes), once: `outcome_handled_at` is claimed in the caller's transaction, then each order of
 * the payment gives back its proportional part. Answers the orders whose payouts to settle after
 * the commit. While an order of the payment is not finished nothing is claimed: the dispute stays
 * unhandled, its orders' payouts stay held and reconcile names the loss.
 */
export async function handleLostDispute(
  tx: Db,
  takeBackOrderShare: TakeBackOrderShare | undefined,
  dispute: DisputeRow,
  now: Date,
): Promise<string[]> {
  if (!takeBackOrderShare) return [];
  const orders = await listOrdersOfDisputedPayment(tx, dispute.paymentId);
  // Only a finished order has earnings to take back. Until every order of the payment is finished
  // the dispute stays unhandled: its payouts stay held and reconcile names it for a person to decide.
  if (orders.some((order) => order.status !== 'delivered' && order.status !== 'completed')) return [];
  if (!(await claimDisputeOutcome(tx, dispute.id, now))) return [];
  const parts = splitLostAmount(
    parseCents(dispute.amount),
    orders.map((order) => parseCents(order.total)),
  );
  for (const [index, order] of orders.entries()) {
    const amountCents = parts[index] ?? 0;
    if (amountCents === 0) continue;
    await takeBackOrderShare(tx, { orderId: order.id, amountCents, disputeId: dispute.id, now });
  }
  return orders.map((order) => order.id);
}
