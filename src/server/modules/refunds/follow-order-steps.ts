import type { Db } from '../../db/client';
import type { PaymentProvider } from '../../adapters/payments/payment-provider';
import type { PayoutTransfers } from '../../adapters/payouts/payout-provider';
import type { AfterCommit, OrderStepFollower } from '../orders/order-steps';
import { settleOrderPayouts } from '../payouts/pay-payout';
import { recordOrderPayouts } from '../payouts/record-order-payouts';
import { takeBackDisputeParts } from './lost-dispute';
import { executeRefund, findWhatIsLeftOfOrder, recordOrderRefund } from './refunds.service';

/** What the money that follows orders needs. The payout hold has no default: a forgotten one must not pay out at once. */
export interface FollowOrderStepsDeps {
  db: Db;
  payments: PaymentProvider;
  payouts: PayoutTransfers;
  now: () => Date;
  /** PAYOUT_HOLD_HOURS in milliseconds (docs/decisions/0022-money-in-combinations.md). */
  holdMs: number;
  /** Where links in mail point (Config.siteUrl). */
  siteUrl: string;
}

const NOTHING: AfterCommit = async () => {};

/**
 * The money that follows an order's steps (docs/ARCHITECTURE.md, Money flows one way), in the
 * step's transaction, with what moves at the providers after the commit:
 * - cancelled: what is left of the order (a lost dispute may have taken part of it already) is
 *   recorded as its refund, then made (docs/decisions/0022-money-in-combinations.md, What is left
 *   of an order);
 * - finished: its earnings become payouts held for `holdMs`, its parts of lost disputes are taken
 *   back from them, then the payouts past their hold are sent.
 */
export function followOrderSteps(deps: FollowOrderStepsDeps): OrderStepFollower {
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
        await executeRefund({ ...deps, log }, refund);
      };
    },
    async finished(tx, order, now) {
      await recordOrderPayouts(tx, order, now, deps.holdMs);
      // Parts of lost disputes of its payment it has not given back yet
      // (docs/decisions/0022-money-in-combinations.md).
      await takeBackDisputeParts(tx, order.id, now);
      return async (log) => {
        await settleOrderPayouts({ ...deps, log }, order.id);
      };
    },
  };
}
