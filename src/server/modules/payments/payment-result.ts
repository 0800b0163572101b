import { conflict } from '../../platform/errors';
import { pricedCheckoutSchema } from '../checkout/checkout.service';
import { listOrdersMadeByPayment, ordersAsTheirBuyerSees } from '../orders/list-orders';
import type { PlacedOrder } from '../orders/place-orders';
import type { Order } from '../../../domain/orders';
import type { PaymentResult } from '../../../domain/checkout';
import { formatCents, parseCents } from '../../../domain/money';
import type { PaymentDeps } from './payment-deps';
import { findRefundReplacingOrders } from '../refunds/refunds.service';
import { findPaymentById, type PaymentRow } from './payments.queries';

/** What a processed payment came to: its orders, or the refund that replaced them. */
export async function readPaymentResult(deps: PaymentDeps, payment: PaymentRow): Promise<PaymentResult> {
  const checkout = pricedCheckoutSchema.safeParse(payment.checkout);
  const sellers = checkout.success ? checkout.data.orders.map((order) => order.sellerId) : [];
  // The orders in the checkout's order of sellers (they share one creation time).
  const orders = (await listOrdersMadeByPayment(deps.db, payment.id)).sort(
    (a, b) => sellers.indexOf(a.sellerId) - sellers.indexOf(b.sellerId),
  );
  const fresh = (await findPaymentById(deps.db, payment.id)) ?? payment;
  let message: string | null = null;
  if (orders.length === 0 && fresh.processedAt) {
    message = await findRefundReplacingOrders(deps.db, payment.id);
  }
  return paymentResultOf(fresh, orders, message);
}

function paymentResultOf(payment: PaymentRow, orders: Order[], message: string | null): PaymentResult {
  const status =
    payment.status === 'succeeded' ||
    payment.status === 'refunded' ||
    payment.status === 'partially_refunded' ||
    payment.status === 'failed' ||
    payment.status === 'cancelled'
      ? payment.status
      : 'requires_payment';
  return {
    paymentId: payment.id,
    provider: payment.provider === 'stripe' ? 'stripe' : 'test',
    status,
    amount: formatCents(parseCents(payment.amount)),
    message,
    orders,
  };
}

/**
 * The answer to a success report that made the orders: the payment as its claim left it and the
 * orders as its transaction wrote them, in the checkout's order of sellers; nothing is read again.
 */
export function placedPaymentResult(placed: {
  payment: PaymentRow;
  orders: readonly PlacedOrder[];
}): PaymentResult {
  return paymentResultOf(placed.payment, ordersAsTheirBuyerSees(placed.orders), null);
}

/** The answer to a success report: the orders; a sold-out item is a 409 with its name. */
export async function answerProcessedPayment(deps: PaymentDeps, payment: PaymentRow): Promise<PaymentResult> {
  const result = await readPaymentResult(deps, payment);
  if (result.orders.length === 0 && result.message) throw conflict(result.message);
  return result;
}
