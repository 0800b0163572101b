import { badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import { canRefundFinishedOrder, isAdmin } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import { recordAdminAction } from '../audit/audit.service';
import { getOrder, getOrderItems, findVisibleOrder } from '../orders/get-order';
import {
  executeRefund,
  findRefundableQuantity,
  findWhatIsLeftOfOrder,
  isRefundHeldByDispute,
  recordOrderRefund,
  takeRefundedItems,
  type RefundDeps,
} from './refunds.service';
import { formatCents, parseCents, type Cents } from '../../../domain/money';
import { ORDER_NOT_FOUND, type Order } from '../../../domain/orders';
import {
  ORDER_ALREADY_REFUNDED,
  ORDER_NOT_FINISHED_FOR_REFUND,
  PAYMENT_DISPUTED_REFUND,
  REFUND_AMOUNT_OR_ITEMS,
  REFUND_AMOUNT_POSITIVE,
  REFUND_ITEM_UNKNOWN,
  refundExceedsMessage,
  refundItemQuantityMessage,
  refundItemsLeftMessage,
  type RefundFinishedOrderBody,
} from '../../../domain/payouts';
import { settleOrderPayouts } from '../payouts/pay-payout';
import { takeBackOrderShare } from '../payouts/take-back-order-share';
import { queueRefundMail } from './refund-mail';
import { lockOrderForRefund } from './refunds.queries';

/** What the body asks to refund: the amount in cents (null for "all that is left") and the items, each once. */
interface Asked {
  cents: Cents | null;
  items?: Array<{ orderItemId: string; quantity: number; name: string }>;
}

/** What the body asks to refund, in cents: the items' price × quantity, the amount, or null for "all that is left". */
async function askedAmount(
  deps: RefundDeps,
  actor: Actor,
  id: string,
  body: RefundFinishedOrderBody,
): Promise<Asked> {
  if (body.amount !== undefined && body.items !== undefined) throw badRequest(REFUND_AMOUNT_OR_ITEMS);
  if (body.amount !== undefined) {
    const cents = parseCents(body.amount);
    if (cents <= 0) throw badRequest(REFUND_AMOUNT_POSITIVE);
    return { cents };
  }
  if (body.items === undefined) return { cents: null };
  const items = await getOrderItems(deps.db, actor, id);
  const asked = new Map<string, number>();
  for (const line of body.items)
    asked.set(line.orderItemId, (asked.get(line.orderItemId) ?? 0) + line.quantity);
  let cents = 0;
  const lines: NonNullable<Asked['items']> = [];
  for (const [itemId, quantity] of asked) {
    const item = items.find((row) => row.id === itemId);
    if (!item?.price) throw badRequest(REFUND_ITEM_UNKNOWN);
    if (quantity > item.quantity)
      throw badRequest(refundItemQuantityMessage(item.productName, item.quantity));
    cents += parseCents(item.price) * quantity;
    lines.push({ orderItemId: itemId, quantity, name: item.productName });
  }
  if (cents <= 0) throw badRequest(REFUND_AMOUNT_POSITIVE);
  return { cents, items: lines };
}

/**
 * POST /api/admin/orders/{id}/refund, our addition (docs/decisions/0018-money-against-stripe.md,
 * Refunds): an admin refunds a delivered or completed order, in whole or in part, as often as
 * something is left. One transaction, with the order's row locked so two refunds cannot both take
 * what is left, records the refund, takes back the seller's, driver's and platform's proportional
 * shares (unsent payouts reduced, paid ones marked for reversal, the fee's part given back in the
 * ledger) and writes the audit trail. After the commit the reversals are attempted first and then
 * the buyer is refunded, even when a reversal cannot be made (the admin decided; a refused one is a
 * loss the platform bears, explicitly). The retry jobs finish either if this process dies first.
 * The order keeps its status; it shows Refunded or Partially refunded.
 */
export async function refundFinishedOrder(
  deps: RefundDeps,
  actor: Actor,
  id: string,
  body: RefundFinishedOrderBody,
): Promise<Order> {
  if (!isAdmin(actor)) throw notFound(ORDER_NOT_FOUND);
  const { order } = await findVisibleOrder(deps.db, actor, id);
  if (!canRefundFinishedOrder(actor, order)) throw conflict(ORDER_NOT_FINISHED_FOR_REFUND);
  if (!order.paymentId)
    throw forbidden('This order was not paid through the marketplace, so there is nothing to refund.');
  const paymentId = order.paymentId;
  const cancelled = order.status === 'cancelled';
  const asked = await askedAmount(deps, actor, id, body);
  const now = deps.now();
  const refund = await deps.db.transaction(async (tx) => {
    const locked = await lockOrderForRefund(tx, id);
    if (!locked) throw notFound(ORDER_NOT_FOUND);
    // Refused before anything is taken from the payees (docs/decisions/0022-money-in-combinations.md).
    if (await isRefundHeldByDispute(tx, paymentId)) throw conflict(PAYMENT_DISPUTED_REFUND);
    // What is left: the total less refunds not undone and parts of lost disputes.
    const left = await findWhatIsLeftOfOrder(tx, locked);
    if (left <= 0) throw conflict(ORDER_ALREADY_REFUNDED);
    const amount = asked.cents ?? left;
    if (amount > left) throw conflict(refundExceedsMessage(formatCents(left)));
    // Each item at most as often as it was bought (the order's row lock keeps two refunds apart).
    for (const line of asked.items ?? [])
      if (!(await takeRefundedItems(tx, id, line.orderItemId, line.quantity)))
        throw conflict(
          refundItemsLeftMessage(line.name, (await findRefundableQuantity(tx, id, line.orderItemId)) ?? 0),
        );
    const recorded = await recordOrderRefund(tx, {
      paymentId,
      orderId: id,
      amount,
      reason: body.reason,
      now,
      ...(asked.items
        ? { items: asked.items.map(({ orderItemId, quantity }) => ({ orderItemId, quantity })) }
        : {}),
    });
    if (!recorded) throw conflict('This order has no payment to refund.');
    // A cancelled order earned nobody anything: there is nothing to take back.
    if (!cancelled)
      await takeBackOrderShare(tx, { orderId: id, amountCents: amount, refundId: recorded.id, now });
    await recordAdminAction(tx, actor, {
      action: 'order.refunded',
      target: { type: 'order', id, label: order.orderNumber },
      before: { status: order.status, refunded: formatCents(parseCents(locked.total) - left) },
      after: {
        status: order.status,
        refunded: formatCents(parseCents(locked.total) - left + amount),
        amount: formatCents(amount),
        ...(body.items ? { items: body.items.map((line) => `${line.orderItemId} × ${line.quantity}`) } : {}),
        reason: body.reason,
      },
      now,
    });
    await queueRefundMail(tx, deps.siteUrl, {
      orderId: id,
      orderNumber: order.orderNumber,
      buyerId: order.buyerId,
      amountCents: amount,
      whole: amount === left && left === parseCents(locked.total),
    });
    return recorded;
  });
  // Reverse first, then refund the buyer (docs/decisions/0018-money-against-stripe.md, Refunds).
  if (!cancelled) await settleOrderPayouts(deps, id);
  await executeRefund(deps, refund);
  deps.log.info({ orderId: id, actorId: actor.id, refundId: refund.id }, 'finished order refunded');
  return getOrder(deps.db, actor, id);
}
