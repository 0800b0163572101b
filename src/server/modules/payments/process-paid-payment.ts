import { pricedCheckoutSchema } from '../checkout/checkout.service';
import { placeOrders } from '../orders/place-orders';
import { takeStockFor } from '../orders/take-stock';
import type { PaymentDeps } from './payment-deps';
import { claimPaymentForOrders, claimPaymentForRefund, insertRefund } from './payments.queries';
import { executeRefund } from './refunds.service';

type Processing = { kind: 'placed' } | { kind: 'already' } | { kind: 'out_of_stock'; message: string };

/** Thrown inside the order transaction to roll it back when a unit is gone. */
class OutOfStockError extends Error {
  constructor(readonly productName: string) {
    super(`Out of stock: ${productName}`);
    this.name = 'OutOfStockError';
  }
}

/**
 * Turns a charged payment into its orders, exactly once however often success is reported
 * (docs/product-rules.md, Payments). One transaction claims the payment (a conditional update only
 * one caller wins), takes the stock atomically and creates the orders. A unit that is gone rolls
 * all of it back; the payment is then claimed the other way, refunded in full through the provider,
 * and makes no order.
 */
export async function processPaidPayment(deps: PaymentDeps, paymentId: string): Promise<Processing> {
  const now = deps.now();
  try {
    return await deps.db.transaction(async (tx): Promise<Processing> => {
      const claimed = await claimPaymentForOrders(tx, paymentId, now);
      if (!claimed) return { kind: 'already' };
      const checkout = pricedCheckoutSchema.parse(claimed.checkout);
      const soldOut = await takeStockFor(
        tx,
        checkout.orders.flatMap((order) => order.items),
      );
      if (soldOut !== null) throw new OutOfStockError(soldOut);
      const orders = await placeOrders(tx, {
        paymentId: claimed.id,
        providerPaymentId: claimed.providerPaymentId,
        checkout,
        now,
      });
      deps.log.info({ paymentId, orders: orders.map((o) => o.orderNumber) }, 'orders placed');
      return { kind: 'placed' };
    });
  } catch (error) {
    if (!(error instanceof OutOfStockError)) throw error;
    const refund = await deps.db.transaction(async (tx) => {
      const claimed = await claimPaymentForRefund(tx, paymentId, now);
      if (!claimed) return undefined;
      return insertRefund(tx, {
        paymentId,
        orderId: null,
        amount: claimed.amount,
        reason: error.message,
        createdAt: now,
      });
    });
    if (!refund) return { kind: 'already' };
    deps.log.warn({ paymentId, reason: error.message }, 'item sold out after payment; refunding in full');
    await executeRefund(deps, refund);
    return { kind: 'out_of_stock', message: error.message };
  }
}
