import type { Db } from '../../db/client';
import { recordMovement, sumRefundMovements } from '../ledger/ledger.service';
import { parseCents } from '../../../domain/money';
import {
  findChargeOfOrder,
  lockTakeBacksOfRefund,
  reopenPaidPayout,
  restoreUnsentPayout,
  setTakeBackState,
} from './payouts.queries';

/**
 * Gives back what a refund took from an order's seller, driver and fee, inside the caller's
 * transaction, when the refund failed or the provider refused it (docs/decisions/0022-money-in-combinations.md,
 * A refund that fails): a payout reduced before it went out regains the share (or, gone out
 * meanwhile, is owed it by a transfer); a reversal not made is dropped; a reversal made is transferred
 * back by the retry job (`restoring`); a loss borne for it is cancelled; the fee's part is earned
 * again. Each step is conditional on the state it finds, so undoing twice changes nothing.
 */
export async function undoTakeBack(
  tx: Db,
  refund: { id: string; orderId: string | null },
  now: Date,
): Promise<void> {
  if (!refund.orderId) return;
  const charge = await findChargeOfOrder(tx, refund.orderId);
  for (const { reversal, payout } of await lockTakeBacksOfRefund(tx, refund.id)) {
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
          refundId: refund.id,
          payoutId: payout.id,
          at: now,
        });
        break;
      default:
        break;
    }
  }
  const feeGivenBack = await sumRefundMovements(tx, refund.id, 'platform_fee_refund');
  await recordMovement(tx, {
    kind: 'platform_fee_restored',
    key: refund.id,
    amount: feeGivenBack,
    currency: charge?.currency ?? 'usd',
    paymentId: charge?.paymentId ?? null,
    orderId: refund.orderId,
    refundId: refund.id,
    at: now,
  });
}
