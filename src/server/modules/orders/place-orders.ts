import type { Db } from '../../db/client';
import { orderChangeEvents } from '../../platform/live-events';
import { getCommissionRates } from '../commission/commission.service';
import { pickupText, type PricedCheckout } from '../checkout/checkout.service';
import {
  computeOrderMoney,
  LOYALTY_WINDOW_DAYS,
  type CommissionRates,
  type OrderMoney,
} from '../../../domain/fees';
import { formatCents, formatRate, parseCents } from '../../../domain/money';
import { newOrderNumber } from './order-number';
import {
  insertOrdersWithItems,
  sumSalesOfSellers,
  type NewOrder,
  type OrderWithDetails,
} from './orders.queries';
import { newDeliveryCode } from './delivery-code';

/** An order as `placeOrders` wrote it, with its pickup address and units (what the API's order shows). */
export type PlacedOrder = OrderWithDetails;

const DAY_MS = 24 * 60 * 60 * 1000;
/** Tries at drawing free order numbers (32^6 of them: a second try is already rare). */
const NUMBER_ATTEMPTS = 8;

/**
 * The commission settings (the defaults when their row is missing) and the sellers' sales of the
 * loyalty window before `now`, for a caller that has not read them: a paid checkout reads them
 * with its claim (docs/decisions/0025-checkout-statements.md, One statement claims, takes the stock
 * and reads the commission).
 */
async function readRatesAndSales(
  tx: Db,
  sellerIds: string[],
  now: Date,
): Promise<{ rates: CommissionRates; sales: Map<string, string> }> {
  const from = new Date(now.getTime() - LOYALTY_WINDOW_DAYS * DAY_MS);
  return { rates: await getCommissionRates(tx), sales: await sumSalesOfSellers(tx, sellerIds, from, now) };
}

/**
 * Creates one order per seller of a paid checkout, inside the caller's transaction (which has
 * already claimed the payment and taken the stock): commission and earnings from the current
 * settings and the sellers' 30-day sales (docs/rules/money.md, Fees and commission), the items at
 * the prices charged, and the first status event by the buyer. Answers the orders as written, with
 * their pickup addresses and units, in the checkout's order of sellers. One statement however many
 * sellers when the commission's inputs are given, as a paid checkout gives them
 * (docs/decisions/0028-checkout-throughput.md, Fewer statements).
 */
export async function placeOrders(
  tx: Db,
  input: {
    paymentId: string;
    providerPaymentId: string;
    checkout: PricedCheckout;
    now: Date;
    /** The commission settings and the sellers' sales of the loyalty window, when already read. */
    commission?: { rates: CommissionRates; sales: Map<string, string> };
  },
): Promise<PlacedOrder[]> {
  const { checkout, now } = input;
  const { rates, sales } =
    input.commission ??
    (await readRatesAndSales(
      tx,
      checkout.orders.map((order) => order.sellerId),
      now,
    ));
  const toPlace = checkout.orders.map((priced): NewOrder => {
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
    return {
      values: {
        orderNumber: newOrderNumber(),
        buyerId: checkout.buyerId,
        sellerId: priced.sellerId,
        status: 'pending',
        isPickup: checkout.isPickup,
        sellerDelivery: priced.sellerDelivery,
        requiresTrailer: priced.requiresTrailer,
        deliveryCode: newDeliveryCode({ isPickup: checkout.isPickup, sellerDelivery: priced.sellerDelivery }),
        ...orderMoneyColumns(amounts),
        deliveryAddress: checkout.isPickup
          ? pickupText(priced.pickupAddress)
          : (checkout.deliveryAddress ?? 'Address not available'),
        // Linked only if the address still exists (insertOrdersWithItems).
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
    };
  });
  // The buyer, the seller and the drivers who may take it are told once the payment's transaction
  // commits, never if it rolls back: the statement that inserts the order publishes its events
  // (docs/decisions/0028-checkout-throughput.md, Fewer statements); the order's id is its own.
  const announced = (order: NewOrder): NewOrder => ({
    ...order,
    announce: orderChangeEvents(
      { id: '', driverId: null, ...order.values, status: 'pending' },
      null,
      checkout.buyerId,
    ),
  });

  const placed = new Map<string, OrderWithDetails>();
  let waiting = toPlace.map(announced);
  for (let attempt = 0; waiting.length > 0; attempt++) {
    if (attempt === NUMBER_ATTEMPTS) throw new Error('Could not draw a free order number');
    for (const row of await insertOrdersWithItems(tx, waiting, { actorId: checkout.buyerId, createdAt: now }))
      placed.set(row.order.sellerId, row);
    // An order whose number was taken is drawn another one.
    waiting = waiting
      .filter(({ values }) => !placed.has(values.sellerId))
      .map((order) => announced({ ...order, values: { ...order.values, orderNumber: newOrderNumber() } }));
  }
  const orders = checkout.orders.flatMap((priced) => {
    const row = placed.get(priced.sellerId);
    return row ? [row] : [];
  });
  return orders;
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
