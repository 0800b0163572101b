import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { PaymentProvider } from '../../adapters/payments/payment-provider';
import { AppError, conflict, forbidden, notFound } from '../../platform/errors';
import type { Actor } from '../../platform/sessions';
import { toPickupAddress } from '../addresses/addresses.service';
import { getCommissionRates } from '../commission/commission.service';
import { pickupText, type PricedCheckout } from '../checkout/checkout.service';
import { executeRefund, recordOrderRefund } from '../payments/refunds.service';
import { computeOrderMoney } from '../../../domain/fees';
import { formatCents, formatRate, parseCents, parseRate } from '../../../domain/money';
import {
  canTransition,
  fulfilmentOf,
  orderStatusSchema,
  STATUS_BADGE,
  type OrderStatus,
  type Party,
} from '../../../domain/order-status';
import {
  ORDER_NOT_FOUND,
  type Order,
  type OrderEvent,
  type OrderItem,
  type OrderListQuery,
} from '../../../domain/orders';
import {
  existingAddressIds,
  findOrderById,
  insertOrderItems,
  insertOrderUnlessNumberTaken,
  insertStatusEvent,
  listEventsOfOrder,
  listItemRowsOfOrder,
  listItemsOfOrder,
  listOrders,
  listOrdersOfPayment,
  restoreStock,
  sumSellerSales,
  takeStock,
  updateOrderStatus,
  type OrderRow,
  type OrderWithDetails,
} from './orders.queries';

export interface OrderDeps {
  db: Db;
  payments: PaymentProvider;
  now: () => Date;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Admins are admins by their granted roles, whatever the header shows (decision 0004). */
export function isAdmin(actor: Actor): boolean {
  return actor.roles.includes('admin');
}

/** DECISIONS §3: the buyer, the seller, the assigned driver and admins; anyone else gets 404. */
export function canViewOrder(
  actor: Actor,
  order: Pick<OrderRow, 'buyerId' | 'sellerId' | 'driverId'>,
): boolean {
  return isAdmin(actor) || [order.buyerId, order.sellerId, order.driverId].includes(actor.id);
}

/** Drivers never see item prices, only their own earnings (DECISIONS §3): a viewer who is only the driver. */
export function seesPrices(actor: Actor, order: Pick<OrderRow, 'buyerId' | 'sellerId'>): boolean {
  return isAdmin(actor) || order.buyerId === actor.id || order.sellerId === actor.id;
}

/** Every capacity in which the actor is linked to the order, for the transition rules. */
export function partiesOf(actor: Actor, order: Pick<OrderRow, 'buyerId' | 'sellerId' | 'driverId'>): Party[] {
  const parties: Party[] = [];
  if (order.buyerId === actor.id) parties.push('buyer');
  if (order.sellerId === actor.id) parties.push('seller');
  if (order.driverId === actor.id) parties.push('driver');
  if (isAdmin(actor)) parties.push('admin');
  return parties;
}

const iso = (date: Date | null) => (date === null ? null : date.toISOString());
const money = (value: string) => formatCents(parseCents(value));
const rate = (value: string) => formatRate(parseRate(value));

/** The API's order (domain/orders.ts), with the price fields left out for a driver viewer. */
export function toOrder({ order, pickup, itemCount }: OrderWithDetails, showPrices: boolean): Order {
  const shown: Order = {
    id: order.id,
    orderNumber: order.orderNumber,
    status: orderStatusSchema.parse(order.status),
    isPickup: order.isPickup,
    sellerDelivery: order.sellerDelivery,
    requiresTrailer: order.requiresTrailer,
    sellerId: order.sellerId,
    buyerId: order.buyerId,
    driverId: order.driverId,
    pickupAddress: pickup ? toPickupAddress(pickup) : null,
    deliveryAddress: order.deliveryAddress,
    deliveryNotes: order.deliveryNotes,
    scheduledPickupTime: iso(order.scheduledPickupTime),
    estimatedDeliveryTime: iso(order.estimatedDeliveryTime),
    createdAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
    deliveryPhotoUrl: order.deliveryPhotoUrl,
    itemCount,
    driverEarnings: money(order.driverEarnings),
  };
  if (!showPrices) return shown;
  return {
    ...shown,
    productSubtotal: money(order.productSubtotal),
    deliveryFee: money(order.deliveryFee),
    total: money(order.total),
    sellerEarnings: money(order.sellerEarnings),
    platformFee: money(order.platformFee),
    purchasePlatformFee: money(order.purchasePlatformFee),
    deliveryPlatformFee: money(order.deliveryPlatformFee),
    salesCommissionRate: rate(order.salesCommissionRate),
    deliveryCommissionRate: rate(order.deliveryCommissionRate),
    seller30DaySales: money(order.seller30DaySales),
    paymentIntentId: order.paymentIntentId,
  };
}

/** DECISIONS §5: short and readable; no 0/O or 1/I to misread. 32^6 ≈ 10^9 numbers. */
const ORDER_NUMBER_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

export function newOrderNumber(): string {
  let code = '';
  for (let i = 0; i < 6; i++)
    code += ORDER_NUMBER_ALPHABET.charAt(crypto.randomInt(ORDER_NUMBER_ALPHABET.length));
  return `ORD-${code}`;
}

/**
 * Creates one order per seller of a paid checkout, inside the caller's transaction (which has
 * already claimed the payment and taken the stock): commission and earnings from the current
 * settings and the seller's 30-day sales (DECISIONS §6), the items at the prices charged, and the
 * first status event by the buyer.
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
    placed.push(order);
  }
  return placed;
}

/**
 * Takes the stock of a paid checkout inside the caller's transaction (DECISIONS §5). Answers the
 * name of the first product that is short (the caller then rolls back), or null when all was taken.
 * Rows are taken in a fixed order, so two checkouts sharing products never wait on each other in a circle.
 */
export async function takeStockFor(
  tx: Db,
  items: readonly { productId: string; name: string; quantity: number }[],
): Promise<string | null> {
  const sorted = [...items].sort((a, b) =>
    a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0,
  );
  for (const item of sorted) if (!(await takeStock(tx, item.productId, item.quantity))) return item.name;
  return null;
}

/** The orders a payment made, as its buyer sees them. */
export async function ordersOfPayment(db: Db, paymentId: string): Promise<Order[]> {
  return (await listOrdersOfPayment(db, paymentId)).map((row) => toOrder(row, true));
}

/**
 * GET /api/orders: the orders the user is a party of, newest first; admins see every order unless
 * they ask for one link with `as`.
 */
export async function listOwnOrders(db: Db, actor: Actor, query: OrderListQuery): Promise<Order[]> {
  const all = query.as === undefined && isAdmin(actor);
  const rows = await listOrders(db, {
    userId: all ? undefined : actor.id,
    as: query.as ? [query.as] : ['buyer', 'seller', 'driver'],
    limit: query.limit,
    offset: query.offset,
  });
  return rows.map((row) => toOrder(row, seesPrices(actor, row.order)));
}

async function findVisibleOrder(db: Db, actor: Actor, id: string): Promise<OrderWithDetails> {
  const found = await findOrderById(db, id);
  if (!found || !canViewOrder(actor, found.order)) throw notFound(ORDER_NOT_FOUND);
  return found;
}

export async function getOrder(db: Db, actor: Actor, id: string): Promise<Order> {
  const found = await findVisibleOrder(db, actor, id);
  return toOrder(found, seesPrices(actor, found.order));
}

/** Items with the product's name and description; no prices for a driver (DECISIONS §3). */
export async function getOrderItems(db: Db, actor: Actor, id: string): Promise<OrderItem[]> {
  const { order } = await findVisibleOrder(db, actor, id);
  const showPrices = seesPrices(actor, order);
  const rows = await listItemsOfOrder(db, id);
  return rows.map(({ item, productName, productDescription, productImageUrl }) => ({
    id: item.id,
    orderId: item.orderId,
    productId: item.productId,
    productName,
    productDescription,
    productImageUrl,
    quantity: item.quantity,
    ...(showPrices
      ? { price: money(item.price), lineTotal: formatCents(parseCents(item.price) * item.quantity) }
      : {}),
  }));
}

/** The timeline: every status change with its actor and time, oldest first (DECISIONS §7). */
export async function getOrderEvents(db: Db, actor: Actor, id: string): Promise<OrderEvent[]> {
  await findVisibleOrder(db, actor, id);
  const rows = await listEventsOfOrder(db, id);
  return rows.map((row) => ({
    id: row.id,
    orderId: row.orderId,
    fromStatus: row.fromStatus === null ? null : orderStatusSchema.parse(row.fromStatus),
    toStatus: orderStatusSchema.parse(row.toStatus),
    actorId: row.actorId,
    createdAt: row.createdAt.toISOString(),
  }));
}

export const ORDER_CHANGED_MEANWHILE =
  'This order was changed at the same moment. Please reload it and try again.';

function cancelRefusal(status: OrderStatus, parties: Party[]): AppError {
  if (status === 'cancelled') return conflict('This order is already cancelled.');
  if (!parties.some((party) => party === 'buyer' || party === 'seller' || party === 'admin'))
    return forbidden('Only the buyer, the seller or an admin can cancel an order.');
  if (parties.includes('admin'))
    return conflict(`A ${STATUS_BADGE[status].toLowerCase()} order cannot be cancelled.`);
  return conflict(
    `This order can no longer be cancelled: it is ${STATUS_BADGE[status]}. Only pending orders can be cancelled.`,
  );
}

/**
 * POST /api/orders/{id}/cancel (DECISIONS §7): the buyer or the seller while pending, an admin until
 * finished. One transaction changes the status conditionally, records the event, puts the stock
 * back and records the refund of the order's total; the refund is then made through the provider.
 */
export async function cancelOrder(deps: OrderDeps, actor: Actor, id: string): Promise<Order> {
  const found = await findVisibleOrder(deps.db, actor, id);
  const { order } = found;
  const status = orderStatusSchema.parse(order.status);
  const parties = partiesOf(actor, order);
  const path = fulfilmentOf(order);
  if (!parties.some((party) => canTransition(path, status, 'cancelled', party)))
    throw cancelRefusal(status, parties);
  const now = deps.now();
  const refund = await deps.db.transaction(async (tx) => {
    const updated = await updateOrderStatus(tx, id, status, 'cancelled', now);
    if (!updated) throw conflict(ORDER_CHANGED_MEANWHILE);
    await insertStatusEvent(tx, {
      orderId: id,
      fromStatus: status,
      toStatus: 'cancelled',
      actorId: actor.id,
      createdAt: now,
    });
    for (const item of await listItemRowsOfOrder(tx, id))
      await restoreStock(tx, item.productId, item.quantity);
    if (!order.paymentId) return undefined;
    return recordOrderRefund(tx, {
      paymentId: order.paymentId,
      orderId: id,
      amount: parseCents(order.total),
      reason: 'Order cancelled',
      now,
    });
  });
  if (refund) await executeRefund(deps, refund);
  deps.log.info({ orderId: id, actorId: actor.id, from: status }, 'order cancelled');
  return getOrder(deps.db, actor, id);
}
