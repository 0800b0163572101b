import type { Order, OrderEvent, OrderItem } from '@domain/orders';

export const BUYER_ID = '00000000-0000-4000-8000-000000000001';
export const SELLER_ID = '00000000-0000-4000-8000-000000000002';
export const DRIVER_ID = '00000000-0000-4000-8000-000000000003';

/** An order as a buyer, seller or admin sees it (every price field), with overrides. */
export function makeOrder(overrides: Partial<Order> = {}): Order {
  return {
    id: '10000000-0000-4000-8000-000000000001',
    orderNumber: 'ORD-7F3K9Q',
    status: 'pending',
    refundState: 'none',
    refundedAmount: '0.00',
    isPickup: false,
    sellerDelivery: false,
    requiresTrailer: false,
    sellerId: SELLER_ID,
    buyerId: BUYER_ID,
    driverId: null,
    pickupAddress: {
      addressLine1: '700 E Grand Ave',
      addressLine2: null,
      city: 'Chicago',
      state: 'IL',
      zipCode: '60611',
      latitude: 41.8925,
      longitude: -87.6097,
    },
    deliveryAddress: '1060 W Addison St, Chicago, IL 60613',
    deliveryNotes: null,
    scheduledPickupTime: null,
    estimatedDeliveryTime: null,
    createdAt: '2026-03-02T15:00:00.000Z',
    updatedAt: '2026-03-02T15:00:00.000Z',
    deliveryPhotoUrl: null,
    deliveredAt: null,
    dropOffPhotoUrl: null,
    deliveryCodeConfirmed: false,
    dropOffPlace: null,
    itemCount: 2,
    productSubtotal: '1200.00',
    deliveryFee: '50.00',
    total: '1250.00',
    sellerEarnings: '1128.00',
    driverEarnings: '45.00',
    platformFee: '77.00',
    purchasePlatformFee: '72.00',
    deliveryPlatformFee: '5.00',
    salesCommissionRate: '0.0600',
    deliveryCommissionRate: '0.1000',
    seller30DaySales: '2350.00',
    paymentIntentId: 'tp_123',
    dispute: null,
    ...overrides,
  };
}

/**
 * The same order as its driver gets it: the price fields are absent
 * (docs/rules/accounts.md, Roles and permissions).
 */
export function asDriverSeesIt(order: Order): Order {
  return {
    id: order.id,
    orderNumber: order.orderNumber,
    status: order.status,
    refundState: order.refundState,
    isPickup: order.isPickup,
    sellerDelivery: order.sellerDelivery,
    requiresTrailer: order.requiresTrailer,
    sellerId: order.sellerId,
    buyerId: order.buyerId,
    driverId: order.driverId,
    pickupAddress: order.pickupAddress,
    deliveryAddress: order.deliveryAddress,
    deliveryNotes: order.deliveryNotes,
    scheduledPickupTime: order.scheduledPickupTime,
    estimatedDeliveryTime: order.estimatedDeliveryTime,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
    deliveryPhotoUrl: order.deliveryPhotoUrl,
    deliveredAt: order.deliveredAt,
    dropOffPhotoUrl: order.dropOffPhotoUrl,
    deliveryCodeConfirmed: order.deliveryCodeConfirmed,
    dropOffPlace: order.dropOffPlace,
    itemCount: order.itemCount,
    driverEarnings: order.driverEarnings,
    dispute: order.dispute ? { status: order.dispute.status } : null,
  };
}

export function makeItem(overrides: Partial<OrderItem> = {}): OrderItem {
  return {
    id: '20000000-0000-4000-8000-000000000001',
    orderId: '10000000-0000-4000-8000-000000000001',
    productId: '30000000-0000-4000-8000-000000000001',
    productName: 'Oak Table',
    productDescription: 'Solid oak',
    productImageUrl: null,
    quantity: 2,
    price: '600.00',
    lineTotal: '1200.00',
    ...overrides,
  };
}

export function makeEvent(overrides: Partial<OrderEvent> = {}): OrderEvent {
  return {
    id: '40000000-0000-4000-8000-000000000001',
    orderId: '10000000-0000-4000-8000-000000000001',
    fromStatus: null,
    toStatus: 'pending',
    actorId: BUYER_ID,
    createdAt: '2026-03-02T15:00:00.000Z',
    ...overrides,
  };
}
