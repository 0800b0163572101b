import type { AfterCommit, OrderStepFollower } from '../orders/order-steps';
import { settleOrderPayouts } from '../payouts/pay-payout';
import { recordOrderPayouts } from '../payouts/record-order-payouts';
import { takeBackDisputeParts } from './lost-dispute';
import { executeRefund, findWhatIsLeftOfOrder, recordOrderRefund, type RefundDeps } from './refunds.service';

const NOTHING: AfterCommit = async () => {};

/**
 * The money that follows an order's steps (docs/ARCHITECTURE.md, Money flows one way), in the
 * step's transaction, with what moves at the providers after the commit:
 * - cancelled: what is left of the order (a lost dispute may have taken part of it already) is
 *   recorded as its refund, then made (docs/decisions/0022-money-in-combinations.md, What is left
 *   of an order);
 * - finished: its earnings become payouts held for `holdMs`, its parts of lost disputes are taken
 *   back from them, then the payouts past their hold are sent.
 *
 * `money` gives the refunds' bag with the log of the step (its request's); `holdMs` is
 * PAYOUT_HOLD_HOURS in milliseconds (docs/decisions/0022-money-in-combinations.md) and has no
 * default: a forgotten hold must not pay out at once.
 */
export function followOrderSteps(
  money: (log: RefundDeps['log']) => RefundDeps,
  holdMs: number,
): OrderStepFollower {
  return {
    async cancelled(tx, order, now) {
      if (!order.paymentId) return NOTHING;
      const left = await findWhatIsLeftOfOrder(tx, order);
      if (left <= 0) return NOTHING;
      const refund = await recordOrderRefund(tx, {
        paymentId: order.paymentId,
        orderId: order.id,
        amount: left,
        reason: 'Order cancelled',
        now,
      });
      if (!refund) return NOTHING;
      return async (log) => {
        await executeRefund(money(log), refund);
      };
    },
    async finished(tx, order, now) {
      await recordOrderPayouts(tx, order, now, holdMs);
      // Parts of lost disputes of its payment it has not given back yet
      // (docs/decisions/0022-money-in-combinations.md).
      await takeBackDisputeParts(tx, order.id, now);
      return async (log) => {
        await settleOrderPayouts(money(log), order.id);
      };
    },
  };
}
