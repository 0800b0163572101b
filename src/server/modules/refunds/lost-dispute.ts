import type { Db } from '../../db/client';
import { formatCents, parseCents, type Cents } from '../../../domain/money';
import { splitLostAmount } from '../../../domain/money-split';
import { isFulfilled } from '../../../domain/order-status';
import { recordMovement, sumDisputeMovements } from '../ledger/ledger.service';
import { cancelRefundsHeldByDispute, findWhatIsLeftOfOrder, recordOrderRefund } from './refunds.service';
import { takeBackOrderShare } from '../payouts/take-back-order-share';
import { undoTakeBack } from '../payouts/undo-take-back';
import {
  claimUntakenDisputeParts,
  insertDisputePart,
  lockOrdersOfPayment,
  markDisputePartsUndone,
  type RefundRow,
} from './refunds.queries';

/** What a lost dispute is, for the split: its payment, what the card network took, and the currency. */
export interface LostDispute {
  id: string;
  paymentId: string;
  amount: string;
  currency: string;
}

/** What follows a lost dispute's commit: payouts to settle, refunds to make. */
export interface LostDisputeOutcome {
  settle: string[];
  refunds: RefundRow[];
}

/**
 * A lost dispute (docs/decisions/0022-money-in-combinations.md, A lost dispute), inside the
 * transaction of the disputes module that claimed its outcome once (`outcome_handled_at`), whatever
 * the orders' states:
 * 1. refunds of the payment never made at the provider are not made: the chargeback gave the buyer
 *    money back instead, and covers first what the buyer was owed already;
 * 2. the rest of the lost amount is split over the orders by what is left of each; a finished order
 *    gives its part back at once as a refund would, an unfinished one when it finishes;
 * 3. what no order had left (money refunded before the dispute took it again) is a `dispute_loss`;
 * 4. what the chargeback did not cover of those refunds is refunded anew.
 */
export async function takeLostDispute(tx: Db, dispute: LostDispute, now: Date): Promise<LostDisputeOutcome> {
  // A prevented dispute on a charge refunded in full took nothing.
  if (parseCents(dispute.amount) === 0) return { settle: [], refunds: [] };
  const orders = await lockOrdersOfPayment(tx, dispute.paymentId);
  const owedByOrder = await cancelRefundsHeldByDispute(tx, dispute.paymentId, now);
  const owed = orders.map((order) => owedByOrder.get(order.id) ?? 0);
  const left: Cents[] = [];
  for (const order of orders) left.push(await findWhatIsLeftOfOrder(tx, order));
  const first = splitLostAmount(parseCents(dispute.amount), owed);
  const second = splitLostAmount(
    first.loss,
    left.map((cents, i) => cents - (owed[i] ?? 0)),
  );
  const settle: string[] = [];
  for (const [i, order] of orders.entries()) {
    const part = (first.parts[i] ?? 0) + (second.parts[i] ?? 0);
    if (part === 0) continue;
    const finished = isFulfilled(order.status);
    await insertDisputePart(tx, {
      disputeId: dispute.id,
      orderId: order.id,
      amount: formatCents(part),
      takenBackAt: finished ? now : null,
      now,
    });
    if (finished) {
      await takeBackOrderShare(tx, { orderId: order.id, amountCents: part, disputeId: dispute.id, now });
      settle.push(order.id);
    }
  }
  await recordMovement(tx, {
    kind: 'dispute_loss',
    key: dispute.id,
    amount: second.loss,
    currency: dispute.currency,
    paymentId: dispute.paymentId,
    disputeId: dispute.id,
    at: now,
  });
  const refunds: RefundRow[] = [];
  for (const [i, order] of orders.entries()) {
    const rest = (owed[i] ?? 0) - (first.parts[i] ?? 0);
    if (rest <= 0) continue;
    const finished = isFulfilled(order.status);
    const refund = await recordOrderRefund(tx, {
      paymentId: dispute.paymentId,
      orderId: order.id,
      amount: rest,
      reason: finished ? 'Refund' : 'Order cancelled',
      now,
    });
    if (!refund) continue;
    // A finished order's refund takes its share back from the payees, as any refund does.
    if (finished) {
      await takeBackOrderShare(tx, { orderId: order.id, amountCents: rest, refundId: refund.id, now });
      if (!settle.includes(order.id)) settle.push(order.id);
    }
    refunds.push(refund);
  }
  return { settle, refunds };
}

/**
 * When an order finishes, inside the status change's transaction: its parts of lost disputes not
 * given back yet are taken back from its new payouts and fee, as a refund would
 * (docs/decisions/0022-money-in-combinations.md, A lost dispute).
 */
export async function takeBackDisputeParts(tx: Db, orderId: string, now: Date): Promise<void> {
  for (const part of await claimUntakenDisputeParts(tx, orderId, now))
    await takeBackOrderShare(tx, {
      orderId,
      amountCents: parseCents(part.amount),
      disputeId: part.disputeId,
      now,
    });
}

/** A prevented dispute whose refund failed: the money that came back, by the provider's refund. */
export interface FailedPreventionRefund {
  disputeId: string;
  paymentId: string;
  currency: string;
  providerRefundId: string;
  /** What the refund would have given the cardholder, in cents. */
  amount: Cents;
}

/**
 * A prevented dispute's refund (Stripe's, to the cardholder) failed after the dispute was handled
 * (docs/decisions/0022-money-in-combinations.md, A prevented dispute whose refund fails), inside the
 * transaction of the disputes module that holds the dispute's row locked: its taking is undone as a
 * failed refund of ours is. The money comes back in the ledger (`dispute_reinstated`, by the refund's
 * id, which the provider reconcile nets against the refund as Stripe does); its parts are undone and no
 * longer count against what is left of their orders; what a finished order gave back is given back to
 * its seller, driver and fee; a loss the platform bore for it is cancelled. Once: the ledger's key and
 * the parts' `undone_at` make a second delivery of the event change nothing. Answers the orders whose
 * payouts regained a share (to settle after the commit).
 */
export async function undoPreventedDispute(
  tx: Db,
  failed: FailedPreventionRefund,
  now: Date,
): Promise<string[]> {
  const { disputeId, paymentId, currency } = failed;
  const cameBack = await recordMovement(tx, {
    kind: 'dispute_reinstated',
    key: `${disputeId}:${failed.providerRefundId}`,
    amount: failed.amount,
    currency,
    paymentId,
    disputeId,
    providerReference: failed.providerRefundId,
    at: now,
  });
  if (!cameBack) return [];
  const settle: string[] = [];
  for (const part of await markDisputePartsUndone(tx, disputeId, now)) {
    // A part not taken back yet (its order had not finished) took nothing: undone, it simply no longer
    // counts.
    if (!part.takenBackAt) continue;
    await undoTakeBack(tx, { disputeId, orderId: part.orderId }, now);
    settle.push(part.orderId);
  }
  await recordMovement(tx, {
    kind: 'loss_cancelled',
    key: `dispute-${disputeId}`,
    amount: await sumDisputeMovements(tx, disputeId, 'dispute_loss'),
    currency,
    paymentId,
    disputeId,
    at: now,
  });
  return settle;
}
