import type { Db } from '../../db/client';
import { constraintOf, sqlStateOf } from '../../platform/errors';
import { orderChangeEvents } from '../../platform/live-events';
import { pickupText, type PricedCheckout } from '../checkout/checkout.service';
import { computeOrderMoney, type CommissionRates, type OrderMoney } from '../../../domain/fees';
import { formatCents, formatRate, parseCents } from '../../../domain/money';
import { newOrderNumber } from './order-number';
import { insertOrdersWithItems, type NewOrder, type OrderWithDetails } from './orders.queries';
import { newDeliveryCode } from './delivery-code';

/**
 * The orders' insert as parts of a statement: the payments module claims a fresh checkout and
 * inserts its orders in one (docs/decisions/0025-checkout-statements.md, One statement places a
 * fresh checkout).
 */
export { orderInsertCtes, orderInsertParams, placedDetails, type NewOrder } from './orders.queries';

/** An order as `placeOrders` wrote it, with its pickup address and units (what the API's order shows). */
export type PlacedOrder = OrderWithDetails;

/** Tries at drawing free order numbers (32^6 of them: a second try is already rare). */
export const NUMBER_ATTEMPTS = 8;

/** What a paid checkout's orders are made from. */
interface PlacingInput {
  paymentId: string;
  providerPaymentId: string;
  checkout: PricedCheckout;
  now: Date;
}

/**
 * The orders of a paid checkout, one per seller, as they are to be inserted: commission and
 * earnings from the settings and the sellers' 30-day sales given (docs/rules/money.md, Fees and
 * commission), the items at the prices charged, each with a new order number and the live events
 * that announce it (the buyer, the seller and the drivers who may take it are told once the
 * statement that inserts it commits, never if it rolls back).
 */
export function ordersToPlace(
  input: PlacingInput & { commission: { rates: CommissionRates; sales: Map<string, string> } },
): NewOrder[] {
  const { checkout, now } = input;
  const { rates, sales } = input.commission;
  return checkout.orders.map((priced): NewOrder => {
    const amounts = computeOrderMoney(
      {
        productSubtotal: priced.productSubtotal,
        deliveryFee: priced.deliveryFee,
        isPickup: checkout.isPickup,
        sellerDelivery: priced.sellerDelivery,
        seller30DaySales: parseCents(sales.get(priced.sellerId) ?? '0'),
      },
      rates,
    );
    return announced(
      {
        values: {
          orderNumber: newOrderNumber(),
          buyerId: checkout.buyerId,
          sellerId: priced.sellerId,
          status: 'pending',
          isPickup: checkout.isPickup,
          sellerDelivery: priced.sellerDelivery,
          requiresTrailer: priced.requiresTrailer,
          deliveryCode: newDeliveryCode({
            isPickup: checkout.isPickup,
            sellerDelivery: priced.sellerDelivery,
          }),
          ...orderMoneyColumns(amounts),
          deliveryAddress: checkout.isPickup
            ? pickupText(priced.pickupAddress)
            : (checkout.deliveryAddress ?? 'Address not available'),
          // Linked only if the address still exists (orderInsertCtes).
          deliveryAddressId: checkout.isPickup ? null : checkout.deliveryAddressId,
          deliveryNotes: checkout.deliveryNotes,
          pickupAddressId: priced.pickupAddressId,
          scheduledPickupTime: priced.scheduledPickupTime ? new Date(priced.scheduledPickupTime) : null,
          paymentIntentId: input.providerPaymentId,
          paymentId: input.paymentId,
          createdAt: now,
          updatedAt: now,
        },
        items: priced.items.map((item) => ({
          productId: item.productId,
          quantity: item.quantity,
          price: formatCents(item.price),
        })),
        announce: [],
      },
      checkout.buyerId,
    );
  });
}

/** The order with the live events that announce it to its buyer, its seller and the drivers (its id is filled in by its insert). */
function announced(order: NewOrder, buyerId: string): NewOrder {
  return {
    ...order,
    announce: orderChangeEvents(
      { id: '', driverId: null, ...order.values, status: 'pending' },
      null,
      buyerId,
    ),
  };
}

/** A statement failed because an order number it inserted was taken (orders_number_unique). */
export function isOrderNumberTaken(error: unknown): boolean {
  return sqlStateOf(error) === '23505' && constraintOf(error) === 'orders_number_unique';
}

/** The same order with another order number drawn (the one drawn was taken), announced under it. */
export function withNewNumber(order: NewOrder): NewOrder {
  return announced(
    { ...order, values: { ...order.values, orderNumber: newOrderNumber() } },
    order.values.buyerId,
  );
}

/**
 * Creates one order per seller of a paid checkout (ordersToPlace), inside the caller's transaction
 * (which has already claimed the payment and taken the stock). Answers the orders as written, with
 * their pickup addresses and units, in the checkout's order of sellers. One statement however many
 * sellers (docs/decisions/0028-checkout-throughput.md, Fewer statements).
 */
export async function placeOrders(
  tx: Db,
  input: PlacingInput & {
    /** The commission settings and the sellers' sales of the loyalty window, read with the claim. */
    commission: { rates: CommissionRates; sales: Map<string, string> };
  },
): Promise<PlacedOrder[]> {
  const { checkout, now } = input;
  const placed = new Map<string, OrderWithDetails>();
  let waiting = ordersToPlace(input);
  for (let attempt = 0; waiting.length > 0; attempt++) {
    if (attempt === NUMBER_ATTEMPTS) throw new Error('Could not draw a free order number');
    for (const row of await insertOrdersWithItems(tx, waiting, { actorId: checkout.buyerId, createdAt: now }))
      placed.set(row.order.sellerId, row);
    // An order whose number was taken is drawn another one.
    waiting = waiting.filter(({ values }) => !placed.has(values.sellerId)).map(withNewNumber);
  }
  return checkout.orders.flatMap((priced) => {
    const row = placed.get(priced.sellerId);
    return row ? [row] : [];
  });
}

/**
 * An order's money as its columns keep it: amounts as decimal strings, rates as decimals
 * (docs/rules/money.md, Fees and commission). The seed's orders are written the same way.
 */
export function orderMoneyColumns(amounts: OrderMoney) {
  return {
    productSubtotal: formatCents(amounts.productSubtotal),
    deliveryFee: formatCents(amounts.deliveryFee),
    total: formatCents(amounts.total),
    sellerEarnings: formatCents(amounts.sellerEarnings),
    driverEarnings: formatCents(amounts.driverEarnings),
    purchasePlatformFee: formatCents(amounts.purchasePlatformFee),
    deliveryPlatformFee: formatCents(amounts.deliveryPlatformFee),
    platformFee: formatCents(amounts.platformFee),
    salesCommissionRate: formatRate(amounts.salesCommissionRate),
    deliveryCommissionRate: formatRate(amounts.deliveryCommissionRate),
    seller30DaySales: formatCents(amounts.seller30DaySales),
  };
}
