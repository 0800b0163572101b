import type { PaymentProvider } from '../../adapters/payments/payment-provider';
import { conflict, forbidden, notFound } from '../../platform/errors';
import { canRefundFinishedOrder, isAdmin } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import { recordAdminAction } from '../audit/audit.service';
import { getOrder, findVisibleOrder } from '../orders/get-order';
import { executeRefund, recordOrderRefund } from '../payments/refunds.service';
import { parseCents } from '../../../domain/money';
import { ORDER_NOT_FOUND, type Order } from '../../../domain/orders';
import { ORDER_ALREADY_REFUNDED, ORDER_NOT_FINISHED_FOR_REFUND } from '../../../domain/payouts';
import { settleOrderPayouts } from './pay-payout';
import type { PayoutDeps } from './payout-deps';
import { hasRefund } from './payouts.queries';
import { recordOrderPayoutsRefund } from './record-order-payouts';

export type RefundFinishedDeps = PayoutDeps & { payments: PaymentProvider };

/**
 * POST /api/admin/orders/{id}/refund, our addition (docs/decisions/0013-money-movement.md,
 * Transfers and the ledger): an admin refunds a delivered or completed order in full, once. One
 * transaction records the refund, cancels the payouts that never went out, marks the paid ones for
 * reversal, gives the platform's fee back in the ledger and writes the audit trail; after the
 * commit the buyer is refunded through the provider and the transfers are reversed (the retry jobs
 * finish either if this process dies first). The order keeps its status.
 */
export async function refundFinishedOrder(
  deps: RefundFinishedDeps,
  actor: Actor,
  id: string,
  reason: string,
): Promise<Order> {
  if (!isAdmin(actor)) throw notFound(ORDER_NOT_FOUND);
  const { order } = await findVisibleOrder(deps.db, actor, id);
  if (!canRefundFinishedOrder(actor, order)) throw conflict(ORDER_NOT_FINISHED_FOR_REFUND);
  if (!order.paymentId)
    throw forbidden('This order was not paid through the marketplace, so there is nothing to refund.');
  const paymentId = order.paymentId;
  if (await hasRefund(deps.db, id)) throw conflict(ORDER_ALREADY_REFUNDED);
  const now = deps.now();
  const refund = await deps.db.transaction(async (tx) => {
    const recorded = await recordOrderRefund(tx, {
      paymentId,
      orderId: id,
      amount: parseCents(order.total),
      reason,
      now,
    });
    await recordOrderPayoutsRefund(tx, order, now);
    await recordAdminAction(tx, actor, {
      action: 'order.refunded',
      target: { type: 'order', id, label: order.orderNumber },
      before: { status: order.status },
      after: { status: order.status, refunded: order.total, reason },
      now,
    });
    return recorded;
  });
  if (refund) await executeRefund(deps, refund);
  await settleOrderPayouts(deps, id);
  deps.log.info({ orderId: id, actorId: actor.id }, 'finished order refunded');
  return getOrder(deps.db, actor, id);
}
