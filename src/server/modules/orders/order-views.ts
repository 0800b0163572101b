import { toPickupAddress } from '../addresses/addresses.service';
import { formatCents, formatRate, parseCents, parseRate } from '../../../domain/money';
import { isClosed, orderStatusSchema } from '../../../domain/order-status';
import type { Order, OrderEvent, OrderItem } from '../../../domain/orders';
import type { OrderEventRow, OrderItemRow, OrderWithDetails } from './orders.queries';
import { toOrderDispute, type OrderDisputeFacts } from './order-disputes';

const iso = (date: Date | null) => (date === null ? null : date.toISOString());
const money = (value: string) => formatCents(parseCents(value));
const rate = (value: string) => formatRate(parseRate(value));

/** The drop-off place, when the driver gave it. */
function dropOffPlaceOf(order: OrderWithDetails['order']): Order['dropOffPlace'] {
  if (order.dropOffLatitude === null || order.dropOffLongitude === null) return null;
  return { latitude: Number(order.dropOffLatitude), longitude: Number(order.dropOffLongitude) };
}

/**
 * The API's order (domain/orders.ts), with the price fields left out for a driver viewer
 * (`canSeeOrderPrices` in src/server/platform/policy.ts decides `showPrices`), the dispute on
 * its payment if any (`findOrderDisputes`), and the delivery code only for those who may read it
 * (`canReadDeliveryCode`) while the order is on its way (docs/rules/deliveries.md, Deliveries).
 */
export function toOrder(
  { order, pickup, itemCount, refunded, refundList }: OrderWithDetails,
  showPrices: boolean,
  dispute?: OrderDisputeFacts,
  showDeliveryCode = false,
): Order {
  const refundedCents = parseCents(refunded);
  const status = orderStatusSchema.parse(order.status);
  const codeShown = showDeliveryCode && order.deliveryCode !== null && !isClosed(status);
  const shown: Order = {
    id: order.id,
    orderNumber: order.orderNumber,
    status,
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
    ...(codeShown && order.deliveryCode !== null ? { deliveryCode: order.deliveryCode } : {}),
    deliveredAt: iso(order.deliveredAt),
    dropOffPhotoUrl: order.dropOffPhotoUrl,
    deliveryCodeConfirmed: order.deliveryCodeConfirmed,
    dropOffPlace: dropOffPlaceOf(order),
    itemCount,
    driverEarnings: money(order.driverEarnings),
    dispute: toOrderDispute(dispute, showPrices),
    refundState:
      refundedCents <= 0
        ? 'none'
        : refundedCents >= parseCents(order.total)
          ? 'refunded'
          : 'partially_refunded',
    refunds: refundList.map((row) => ({
      id: row.id,
      ...(showPrices ? { amount: money(row.amount) } : {}),
      createdAt: new Date(row.createdAt).toISOString(),
    })),
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
    refundedAmount: formatCents(refundedCents),
  };
}

/** An item row with what the order shows of its product (`listItemsOfOrder`). */
interface ItemWithProduct {
  item: OrderItemRow;
  productName: string;
  productDescription: string | null;
  productImageUrl: string | null;
}

/**
 * An item with the product's name and description; no prices for a driver
 * (docs/rules/accounts.md, Roles and permissions).
 */
export function toOrderItem(
  { item, productName, productDescription, productImageUrl }: ItemWithProduct,
  showPrices: boolean,
): OrderItem {
  return {
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
  };
}

/** One step of the timeline (docs/rules/catalog-and-orders.md, Order lifecycle). */
export function toOrderEvent(row: OrderEventRow): OrderEvent {
  return {
    id: row.id,
    orderId: row.orderId,
    fromStatus: row.fromStatus === null ? null : orderStatusSchema.parse(row.fromStatus),
    toStatus: orderStatusSchema.parse(row.toStatus),
    actorId: row.actorId,
    createdAt: row.createdAt.toISOString(),
  };
}
