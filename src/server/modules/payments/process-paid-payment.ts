import { pricedCheckoutSchema, type PricedCheckout } from '../checkout/checkout.service';
import { priceCheckout } from '../checkout/price-checkout';
import {
  isOrderNumberTaken,
  NUMBER_ATTEMPTS,
  ordersToPlace,
  placeOrders,
  withNewNumber,
  type PlacedOrder,
} from '../orders/place-orders';
import { firstShortOf, stockLinesOf, takeStockFor } from '../products/product-stock';
import type { Db } from '../../db/client';
import { sqlStateOf } from '../../platform/errors';
import type { CheckoutBody } from '../../../domain/checkout';
import { DEFAULT_COMMISSION_RATES, loyaltyWindowStart, parseCommissionSettings } from '../../../domain/fees';
import { formatCents } from '../../../domain/money';
import type { PaymentDeps } from './payment-deps';
import { QUOTE_VALID_MS } from './payment-times';
import {
  claimLatePaymentForOrders,
  claimPaymentForRefund,
  findPaymentForOrders,
  placeFreshCheckout,
  type PaymentForOrders,
  setPaymentCharge,
  type PaymentRow,
} from './payments.queries';
import { executeRefund, recordPaymentRefund } from '../refunds/refunds.service';
import { learnProviderFeeQuietly } from './provider-fees';
import { findUserById } from '../users/user-records';

type Processing =
  | { kind: 'placed'; payment: PaymentRow; orders: PlacedOrder[] }
  | { kind: 'already' }
  | { kind: 'refunded'; message: string };

/** Said to the buyer of a payment that arrived after its quote expired, when the checkout changed meanwhile. */
export const REPRICED_TOTAL_MESSAGE =
  'The prices of your checkout changed before your payment arrived, so no order was placed. The full amount has been refunded.';
export const REPRICED_UNAVAILABLE_MESSAGE = (problem: string) =>
  `Your checkout changed before your payment arrived (${problem}), so no order was placed. The full amount has been refunded.`;

/** Thrown inside the order transaction to roll it back: the payment is refunded in full instead. */
class RefundInsteadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefundInsteadError';
  }
}

/** The checkout body the stored priced checkout was made from (re-pricing a late payment). */
function bodyOf(checkout: PricedCheckout): CheckoutBody {
  const pickupTimes = checkout.orders.flatMap((order) =>
    order.scheduledPickupTime ? [[order.sellerId, order.scheduledPickupTime] as const] : [],
  );
  return {
    items: checkout.orders.flatMap((order) =>
      order.items.map((item) => ({ productId: item.productId, quantity: item.quantity })),
    ),
    isPickup: checkout.isPickup,
    deliveryAddressId: checkout.deliveryAddressId,
    deliveryNotes: checkout.deliveryNotes,
    ...(pickupTimes.length > 0 ? { scheduledPickupTimes: Object.fromEntries(pickupTimes) } : {}),
  };
}

/**
 * A payment that arrives after its quote expired (docs/decisions/0013-money-movement.md) is priced
 * again from the database: the same total keeps it (with today's prices), anything that cannot be
 * bought or a different total refunds it in full with a sentence for the buyer.
 */
async function repriceLatePayment(
  deps: PaymentDeps,
  tx: Db,
  payment: PaymentRow,
  checkout: PricedCheckout,
  now: Date,
): Promise<PricedCheckout> {
  if (now.getTime() - payment.createdAt.getTime() <= QUOTE_VALID_MS) return checkout;
  const buyer = await findUserById(tx, payment.buyerId);
  if (!buyer) throw new RefundInsteadError(REPRICED_UNAVAILABLE_MESSAGE('your account is gone'));
  const { quote, priced } = await priceCheckout(
    { db: tx, now: () => now, timeZone: deps.timeZone },
    // Pricing reads the checkout's own addresses, never the buyer's primary place.
    { ...buyer, role: 'buyer', roles: ['buyer'], primaryLocation: null },
    bodyOf(checkout),
  );
  const problem = quote.problems[0];
  if (problem) throw new RefundInsteadError(REPRICED_UNAVAILABLE_MESSAGE(problem.message));
  if (priced.total !== checkout.total) {
    deps.log.warn(
      { paymentId: payment.id, paid: formatCents(checkout.total), now: formatCents(priced.total) },
      'late payment re-priced to another total',
    );
    throw new RefundInsteadError(REPRICED_TOTAL_MESSAGE);
  }
  return priced;
}

/** PostgreSQL's SQLSTATE for a transaction stopped to break a deadlock. */
const DEADLOCK_DETECTED = '40P01';

/** Whether the payment's quote still holds at `now` (docs/decisions/0013-money-movement.md). */
const isFresh = (payment: PaymentRow, now: Date) =>
  now.getTime() - payment.createdAt.getTime() <= QUOTE_VALID_MS;

/**
 * A paid checkout whose quote holds, made into its orders by one statement (placeFreshCheckout); a
 * line gone or short rolls nothing back, as nothing was written: the payment is refunded instead.
 * An order number drawn twice fails the statement, which is sent again with new numbers.
 */
async function placeFresh(
  deps: PaymentDeps,
  found: PaymentForOrders,
  options: { now: Date; chargeId: string | null; fee: string | null },
): Promise<Processing> {
  const { payment } = found;
  const checkout = pricedCheckoutSchema.parse(payment.checkout);
  const lines = checkout.orders.flatMap((order) => order.items);
  let placing = ordersToPlace({
    paymentId: payment.id,
    providerPaymentId: payment.providerPaymentId,
    checkout,
    now: options.now,
    commission: {
      rates: found.settings ? parseCommissionSettings(found.settings) : DEFAULT_COMMISSION_RATES,
      sales: found.sales,
    },
  });
  for (let attempt = 1; ; attempt++) {
    try {
      const placed = await placeFreshCheckout(deps.db, {
        id: payment.id,
        now: options.now,
        chargeId: options.chargeId,
        fee: options.fee,
        lines: stockLinesOf(lines),
        placing,
        actorId: checkout.buyerId,
      });
      if (placed.kind === 'short') {
        const short = new Set(placed.productIds);
        const taken = new Set(lines.map((line) => line.productId).filter((id) => !short.has(id)));
        throw new RefundInsteadError(`Out of stock: ${firstShortOf(lines, taken) ?? 'an item'}`);
      }
      if (placed.kind === 'already') return placed;
      deps.log.info(
        { paymentId: payment.id, orders: placed.orders.map((o) => o.order.orderNumber) },
        'orders placed',
      );
      // In the checkout's order of sellers.
      const bySeller = new Map(placed.orders.map((row) => [row.order.sellerId, row]));
      const orders = checkout.orders.flatMap((priced) => bySeller.get(priced.sellerId) ?? []);
      return { kind: 'placed', payment: placed.payment, orders };
    } catch (error) {
      if (!isOrderNumberTaken(error) || attempt >= NUMBER_ATTEMPTS) throw error;
      placing = placing.map(withNewNumber);
    }
  }
}

/**
 * A late payment (its quote expired: docs/decisions/0013-money-movement.md) in a transaction: one
 * statement claims it (keeping the charge and the fee, writing the charge to the ledger) and reads
 * the commission's inputs; it is priced again before its stock is taken (the price check reads
 * the stock), and anything short or changed rolls all of it back to refund instead.
 */
async function placeLateInTransaction(
  deps: PaymentDeps,
  paymentId: string,
  {
    now,
    chargeId,
    fee,
    salesFrom,
  }: { now: Date; chargeId: string | null; fee: string | null; salesFrom: Date },
): Promise<Processing> {
  return deps.db.transaction(async (tx): Promise<Processing> => {
    const claimed = await claimLatePaymentForOrders(tx, { id: paymentId, now, chargeId, fee, salesFrom });
    if (!claimed) return { kind: 'already' };
    const paid = pricedCheckoutSchema.parse(claimed.payment.checkout);
    const checkout = await repriceLatePayment(deps, tx, claimed.payment, paid, now);
    const soldOut = await takeStockFor(
      tx,
      checkout.orders.flatMap((order) => order.items),
    );
    if (soldOut !== null) throw new RefundInsteadError(`Out of stock: ${soldOut}`);
    const orders = await placeOrders(tx, {
      paymentId: claimed.payment.id,
      providerPaymentId: claimed.payment.providerPaymentId,
      checkout,
      now,
      commission: {
        rates: claimed.settings ? parseCommissionSettings(claimed.settings) : DEFAULT_COMMISSION_RATES,
        sales: claimed.sales,
      },
    });
    deps.log.info({ paymentId, orders: orders.map((o) => o.order.orderNumber) }, 'orders placed');
    return { kind: 'placed', payment: claimed.payment, orders };
  });
}

/**
 * Turns a charged payment into its orders, exactly once however often success is reported
 * (docs/rules/money.md, Payments). The claim of the payment (a conditional update only one caller
 * wins), the stock and the orders are all or nothing: one statement while its quote holds
 * (placeFresh), a transaction that prices it again first when it expired (placeLateInTransaction).
 * A unit that is gone, or a late payment whose checkout changed, writes nothing of it; the payment
 * is then claimed the other way, refunded in full through the provider, and makes no order.
 * `chargeId` is the provider's charge, kept for the transfers of the orders.
 */
export async function processPaidPayment(
  deps: PaymentDeps,
  paymentId: string,
  charge: { chargeId: string | null } = { chargeId: null },
  /** The payment with its commission's inputs, when the caller has just read them (findPaymentForOrders). */
  read?: PaymentForOrders,
): Promise<Processing> {
  const now = deps.now();
  const { chargeId } = charge;
  // A provider that keeps no fee has its fee (0) kept by the claim: no write after the orders for it
  // (docs/decisions/0025-checkout-statements.md).
  const fee = deps.payments.chargesNoFee ? formatCents(0) : null;
  const salesFrom = loyaltyWindowStart(now);
  try {
    let processed: Processing | undefined;
    for (let attempt = 1; !processed; attempt++) {
      try {
        const found =
          attempt === 1 && read
            ? read
            : await findPaymentForOrders(deps.db, { id: paymentId, now, salesFrom });
        // A payment whose quote holds is made into its orders by one statement; a late one is priced
        // again first, in a transaction (docs/decisions/0025-checkout-statements.md, One statement
        // places a fresh checkout).
        processed =
          !found || found.payment.processedAt
            ? { kind: 'already' }
            : isFresh(found.payment, now)
              ? await placeFresh(deps, found, { now, chargeId, fee })
              : await placeLateInTransaction(deps, paymentId, { now, chargeId, fee, salesFrom });
      } catch (error) {
        // The two ways lock the payment and its products in opposite orders: two callers of the
        // same payment at its quote's boundary may deadlock, and the one PostgreSQL stops looks
        // again (the other has processed it meanwhile).
        if (sqlStateOf(error) !== DEADLOCK_DETECTED || attempt > 1) throw error;
      }
    }
    // Processed before: the charge is still kept if it was not yet.
    if (processed.kind === 'already' && chargeId) await setPaymentCharge(deps.db, paymentId, chargeId, now);
    // The provider's fee of the charge (docs/decisions/0018-money-against-stripe.md, Provider fees).
    if (processed.kind === 'placed') await learnProviderFeeQuietly(deps, processed.payment);
    return processed;
  } catch (error) {
    if (!(error instanceof RefundInsteadError)) throw error;
    const refund = await deps.db.transaction(async (tx) => {
      const claimed = await claimPaymentForRefund(tx, paymentId, now, chargeId, fee);
      if (!claimed) return undefined;
      const row = await recordPaymentRefund(tx, {
        paymentId,
        amount: claimed.amount,
        reason: error.message,
        now,
      });
      return { row, payment: claimed };
    });
    if (!refund) {
      if (chargeId) await setPaymentCharge(deps.db, paymentId, chargeId, now);
      return { kind: 'already' };
    }
    // Stripe keeps its fee on a refunded charge: the fee is the platform's loss all the same.
    await learnProviderFeeQuietly(deps, refund.payment);
    deps.log.warn({ paymentId, reason: error.message }, 'payment cannot make its orders; refunding in full');
    await executeRefund(deps, refund.row);
    return { kind: 'refunded', message: error.message };
  }
}
