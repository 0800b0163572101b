import type { Db } from '../../db/client';
import { recordMovement, sumDisputeOrderMovements, sumRefundMovements } from '../ledger/ledger.service';
import { parseCents } from '../../../domain/money';
import {
  findChargeOfOrder,
  lockTakeBacksOfDispute,
  lockTakeBacksOfRefund,
  reopenPaidPayout,
  restoreUnsentPayout,
  setTakeBackState,
} from './payouts.queries';

/**
 * What is undone: a refund's take-back from its order, or one order's part of a lost dispute whose
 * money came back (a prevented dispute's refund that failed).
 */
export type UndoneTakeBack =
  { refundId: string; orderId: string | null } | { disputeId: string; orderId: string };

/**
 * Gives back what a refund, or an order's part of a prevented dispute, took from an order's seller,
 * driver and fee, inside the caller's transaction, when the refund failed or the provider refused it
 * (docs/decisions/0022-money-in-combinations.md, A refund that fails; A prevented dispute whose refund
 * fails): a payout reduced before it went out regains the share (or, gone out meanwhile, is owed it
 * by a transfer); a reversal not made is dropped; a reversal made is transferred back by the retry job
 * (`restoring`); a loss borne for it is cancelled; the fee's part is earned again. Each step is
 * conditional on the state it finds, so undoing twice changes nothing.
 */
export async function undoTakeBack(tx: Db, undone: UndoneTakeBack, now: Date): Promise<void> {
  const { orderId } = undone;
  if (!orderId) return;
  const byRefund = 'refundId' in undone ? undone.refundId : null;
  const byDispute = 'disputeId' in undone ? undone.disputeId : null;
  const charge = await findChargeOfOrder(tx, orderId);
  const takeBacks = byRefund
    ? await lockTakeBacksOfRefund(tx, byRefund)
    : await lockTakeBacksOfDispute(tx, byDispute ?? '', orderId);
  for (const { reversal, payout } of takeBacks) {
    switch (reversal.status) {
      case 'cancelled':
        if (await restoreUnsentPayout(tx, payout.id, reversal.amount, now))
          await setTakeBackState(tx, reversal.id, 'void', now);
        else {
          // Paid at the reduced amount: the payout owes the share again, sent by the retry job.
          await reopenPaidPayout(tx, payout.id, reversal.amount, now);
          await setTakeBackState(tx, reversal.id, 'restoring', now);
        }
        break;
      case 'pending':
        // Never made (one on its way finds it void and turns it to `restoring` when it lands).
        await setTakeBackState(tx, reversal.id, 'void', now);
        break;
      case 'reversed':
        await reopenPaidPayout(tx, payout.id, '0', now);
        await setTakeBackState(tx, reversal.id, 'restoring', now);
        break;
      case 'unrecovered':
        await setTakeBackState(tx, reversal.id, 'void', now);
        await recordMovement(tx, {
          kind: 'loss_cancelled',
          key: reversal.id,
          amount: parseCents(reversal.amount),
          currency: payout.currency,
          paymentId: charge?.paymentId ?? null,
          orderId: payout.orderId,
          userId: payout.userId,
          refundId: byRefund,
          disputeId: byDispute,
          payoutId: payout.id,
          at: now,
        });
        break;
      default:
        break;
    }
  }
  const feeGivenBack = byRefund
    ? await sumRefundMovements(tx, byRefund, 'platform_fee_refund')
    : await sumDisputeOrderMovements(tx, byDispute ?? '', orderId, 'platform_fee_refund');
  await recordMovement(tx, {
    kind: 'platform_fee_restored',
    // Keyed as the fee's part was given back (take-back-order-share.ts): per refund, or per order of a
    // dispute.
    key: byRefund ?? `dispute-${byDispute ?? ''}-${orderId}`,
    amount: feeGivenBack,
    currency: charge?.currency ?? 'usd',
    paymentId: charge?.paymentId ?? null,
    orderId,
    refundId: byRefund,
    disputeId: byDispute,
    at: now,
  });
}
