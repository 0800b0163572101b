import type { Db } from '../../db/client';
import { announceOrderChange } from '../../platform/live-events';
import { getCommissionRates } from '../commission/commission.service';
import { pickupText, type PricedCheckout } from '../checkout/checkout.service';
import { computeOrderMoney } from '../../../domain/fees';
import { formatCents, formatRate, parseCents } from '../../../domain/money';
import { newOrderNumber } from './order-number';
import {
  existingAddressIds,
  insertOrderItems,
  insertOrderUnlessNumberTaken,
  insertStatusEvent,
  sumSellerSales,
  type OrderRow,
} from './orders.queries';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Creates one order per seller of a paid checkout, inside the caller's transaction (which has
 * already claimed the payment and taken the stock): commission and earnings from the current
 * settings and the seller's 30-day sales (docs/product-rules.md, Fees and commission), the items at
 * the prices charged, and the first status event by the buyer.
 */
export async function placeOrders(
  tx: Db,
  input: { paymentId: string; providerPaymentId: string; checkout: PricedCheckout; now: Date },
): Promise<OrderRow[]> {
  const { checkout, now } = input;
  const rates = await getCommissionRates(tx);
  // Addresses deleted since the payment was created are not linked (the text is kept).
  const liveAddresses = await existingAddressIds(
    tx,
    [checkout.deliveryAddressId, ...checkout.orders.map((o) => o.pickupAddressId)].filter(
      (id): id is string => id !== null,
    ),
  );
  const linked = (id: string | null) => (id !== null && liveAddresses.has(id) ? id : null);
  const placed: OrderRow[] = [];
  for (const priced of checkout.orders) {
    const seller30DaySales = parseCents(
      await sumSellerSales(tx, priced.sellerId, new Date(now.getTime() - 30 * DAY_MS), now),
    );
    const amounts = computeOrderMoney(
      {
        productSubtotal: priced.productSubtotal,
        deliveryFee: priced.deliveryFee,
        isPickup: checkout.isPickup,
        sellerDelivery: priced.sellerDelivery,
        seller30DaySales,
      },
      rates,
    );
    const values = {
      buyerId: checkout.buyerId,
      sellerId: priced.sellerId,
      status: 'pending',
      isPickup: checkout.isPickup,
      sellerDelivery: priced.sellerDelivery,
      requiresTrailer: priced.requiresTrailer,
      productSubtotal: formatCents(amounts.productSubtotal),
      deliveryFee: formatCents(amounts.deliveryFee),
      total: formatCents(amounts.total),
      deliveryAddress: checkout.isPickup
        ? pickupText(priced.pickupAddress)
        : (checkout.deliveryAddress ?? 'Address not available'),
      deliveryAddressId: checkout.isPickup ? null : linked(checkout.deliveryAddressId),
      deliveryNotes: checkout.deliveryNotes,
      pickupAddressId: linked(priced.pickupAddressId),
      scheduledPickupTime: priced.scheduledPickupTime ? new Date(priced.scheduledPickupTime) : null,
      paymentIntentId: input.providerPaymentId,
      paymentId: input.paymentId,
      sellerEarnings: formatCents(amounts.sellerEarnings),
      driverEarnings: formatCents(amounts.driverEarnings),
      purchasePlatformFee: formatCents(amounts.purchasePlatformFee),
      deliveryPlatformFee: formatCents(amounts.deliveryPlatformFee),
      platformFee: formatCents(amounts.platformFee),
      salesCommissionRate: formatRate(amounts.salesCommissionRate),
      deliveryCommissionRate: formatRate(amounts.deliveryCommissionRate),
      seller30DaySales: formatCents(amounts.seller30DaySales),
      createdAt: now,
      updatedAt: now,
    };
    let order: OrderRow | undefined;
    for (let attempt = 0; attempt < 8 && !order; attempt++)
      order = await insertOrderUnlessNumberTaken(tx, { ...values, orderNumber: newOrderNumber() });
    if (!order) throw new Error('Could not draw a free order number');
    await insertOrderItems(
      tx,
      priced.items.map((item) => ({
        orderId: order.id,
        productId: item.productId,
        quantity: item.quantity,
        price: formatCents(item.price),
        createdAt: now,
      })),
    );
    await insertStatusEvent(tx, {
      orderId: order.id,
      fromStatus: null,
      toStatus: 'pending',
      actorId: checkout.buyerId,
      createdAt: now,
    });
    // Written in the caller's transaction: the buyer, the seller and the drivers who may take it
    // are told once the payment's transaction commits, never if it rolls back.
    await announceOrderChange(tx, order, { from: null, actorId: checkout.buyerId });
    placed.push(order);
  }
  return placed;
}
