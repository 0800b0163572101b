import { z } from 'zod';
import { pickupAddressSchema } from './addresses';
import { orderDisputeSchema } from './disputes';
import { moneyStringSchema } from './catalog';
import { orderStatusSchema } from './order-status';
import { idSchema } from './users';

/**
 * Orders as the API answers them (docs/rules/accounts.md, Roles and permissions; docs/rules/money.md, Fees
 * and commission; docs/rules/catalog-and-orders.md, Order lifecycle). Money is a decimal string with 2
 * places, rates with 4 places.
 *
 * Drivers never see item prices and see only their own earnings
 * (docs/rules/accounts.md, Roles and permissions): for a viewer whose only link to the order is
 * being its driver, the fields marked "hidden from the driver" are left out of the answer (absent,
 * not null). Buyers, sellers and admins see every field.
 */

/** Rates at the edges: 4 places ("0.0600"). */
export const rateStringSchema = z.string().regex(/^\d+\.\d{4}$/);

export const REFUND_STATES = ['none', 'partially_refunded', 'refunded'] as const;
export const refundStateSchema = z.enum(REFUND_STATES);
export type RefundState = z.infer<typeof refundStateSchema>;
export const REFUND_STATE_LABEL: Readonly<Record<RefundState, string>> = {
  none: '',
  partially_refunded: 'Partially refunded',
  refunded: 'Refunded',
};

export const orderRefundSchema = z.object({
  id: z.string(),
  /** Hidden from the driver. */
  amount: moneyStringSchema.optional(),
  createdAt: z.string(),
});
export type OrderRefund = z.infer<typeof orderRefundSchema>;

export const orderSchema = z.object({
  id: z.string(),
  /** Short and readable, unique: ORD-7F3K9Q (docs/rules/catalog-and-orders.md, Checkout and orders). */
  orderNumber: z.string(),
  status: orderStatusSchema,
  isPickup: z.boolean(),
  /** The seller delivers this order themselves (no driver; timeline pending → in-transit → delivered). */
  sellerDelivery: z.boolean(),
  /** Some item needs a trailer: offered only to drivers with a trailer image; photo before pickup. */
  requiresTrailer: z.boolean(),
  sellerId: z.string(),
  buyerId: z.string(),
  driverId: z.string().nullable(),
  /** The seller's address the order leaves from (pickup or driver collection); null if unknown. */
  pickupAddress: pickupAddressSchema.nullable(),
  /** One line of text; for a pickup order "Pickup at <seller address>". */
  deliveryAddress: z.string(),
  deliveryNotes: z.string().nullable(),
  /** ISO date-times. */
  scheduledPickupTime: z.string().nullable(),
  estimatedDeliveryTime: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  deliveryPhotoUrl: z.string().nullable(),
  /**
   * The 4 digits the buyer reads to the driver at drop-off (docs/rules/deliveries.md, Deliveries): only
   * in the buyer's and admins' answers while the order is on its way, never the driver's or seller's.
   */
  deliveryCode: z.string().optional(),
  /** When the order was delivered (ISO); null before. */
  deliveredAt: z.string().nullable(),
  /** Proof of delivery: the drop-off photo, whether the buyer's code was confirmed, and the place. */
  dropOffPhotoUrl: z.string().nullable(),
  deliveryCodeConfirmed: z.boolean(),
  dropOffPlace: z.object({ latitude: z.number(), longitude: z.number() }).nullable(),
  /** Number of units ordered (sum of item quantities). */
  itemCount: z.number().int(),
  /** Hidden from the driver. */
  productSubtotal: moneyStringSchema.optional(),
  /** Hidden from the driver. */
  deliveryFee: moneyStringSchema.optional(),
  /** What the buyer paid for this order. Hidden from the driver. */
  total: moneyStringSchema.optional(),
  /** Hidden from the driver. Includes the whole delivery fee when the seller delivers. */
  sellerEarnings: moneyStringSchema.optional(),
  /** Always shown: it is the driver's own earnings (0.00 when no driver is involved). */
  driverEarnings: moneyStringSchema,
  /** purchasePlatformFee + deliveryPlatformFee. Hidden from the driver. */
  platformFee: moneyStringSchema.optional(),
  /** productSubtotal × salesCommissionRate. Hidden from the driver. */
  purchasePlatformFee: moneyStringSchema.optional(),
  /** deliveryFee × deliveryCommissionRate. Hidden from the driver. */
  deliveryPlatformFee: moneyStringSchema.optional(),
  /** Hidden from the driver. */
  salesCommissionRate: rateStringSchema.optional(),
  /** 0.0000 for seller-delivered and pickup orders. Hidden from the driver. */
  deliveryCommissionRate: rateStringSchema.optional(),
  /** The seller's 30-day sales the loyalty discount was computed from. Hidden from the driver. */
  seller30DaySales: moneyStringSchema.optional(),
  /** The payment provider's id of the payment (test: tp_…, Stripe: pi_…). Hidden from the driver. */
  paymentIntentId: z.string().nullable().optional(),
  /**
   * A chargeback on the order's payment (docs/decisions/0018-money-against-stripe.md, Disputes):
   * its status and evidence deadline; the amount is hidden from the driver. null when none.
   */
  dispute: orderDisputeSchema.nullable(),
  /**
   * Whether the order's money went back to the buyer, in whole or in part (a cancellation, or an
   * admin's refund of a finished order): shown to everyone, the driver included
   * (docs/decisions/0018-money-against-stripe.md, Refunds).
   */
  refundState: refundStateSchema,
  /** What was refunded so far. Hidden from the driver. */
  refundedAmount: moneyStringSchema.optional(),
  /** Each refund, oldest first, for the timeline; `amount` hidden from the driver. */
  refunds: z.array(orderRefundSchema).optional(),
});
export type Order = z.infer<typeof orderSchema>;

/**
 * GET /api/orders/{id}/items (docs/rules/screens-buyer.md, Order screens). `price` is absent for a driver
 * viewer.
 */
export const orderItemSchema = z.object({
  id: z.string(),
  orderId: z.string(),
  productId: z.string(),
  productName: z.string(),
  productDescription: z.string().nullable(),
  productImageUrl: z.string().nullable(),
  quantity: z.number().int(),
  /** Unit price paid. Hidden from the driver. */
  price: moneyStringSchema.optional(),
  /** price × quantity. Hidden from the driver. */
  lineTotal: moneyStringSchema.optional(),
});
export type OrderItem = z.infer<typeof orderItemSchema>;

/**
 * GET /api/orders/{id}/events: every status change with its actor and time, oldest first
 * (docs/rules/catalog-and-orders.md, Order lifecycle).
 */
export const orderEventSchema = z.object({
  id: z.string(),
  orderId: z.string(),
  /** null for the first event (the order was placed). */
  fromStatus: z.nullable(orderStatusSchema),
  toStatus: orderStatusSchema,
  actorId: z.string().nullable(),
  createdAt: z.string(),
});
export type OrderEvent = z.infer<typeof orderEventSchema>;

/** Which of the viewer's links to orders a list shows; absent means all of them (admin: every order). */
export const ORDER_LIST_VIEWS = ['buyer', 'seller', 'driver'] as const;

/** GET /api/orders query. */
export const orderListQuerySchema = z.strictObject({
  /** My Orders sends as=buyer; the seller dashboard as=seller; the driver's deliveries as=driver. */
  as: z.enum(ORDER_LIST_VIEWS).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(200),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type OrderListQuery = z.infer<typeof orderListQuerySchema>;

export const orderIdParamsSchema = z.object({ id: idSchema });

/** A non-party never learns that the order exists (docs/rules/accounts.md, Roles and permissions). */
export const ORDER_NOT_FOUND = 'Order not found';

/**
 * PATCH /api/orders/{id}/status: the forward steps a seller or driver makes
 * (docs/rules/catalog-and-orders.md, Order lifecycle). Accepting (`assigned`) and cancelling have calls of
 * their own.
 */
export const STATUS_CHANGE_TARGETS = ['in-transit', 'delivered', 'ready_for_pickup', 'completed'] as const;
export const orderStatusChangeBodySchema = z.strictObject({
  status: z.enum(STATUS_CHANGE_TARGETS, {
    message: `Status must be one of: ${STATUS_CHANGE_TARGETS.join(', ')} (accept and cancel have calls of their own)`,
  }),
});
export type OrderStatusChangeBody = z.infer<typeof orderStatusChangeBodySchema>;

export const TRAILER_PHOTO_REQUIRED =
  'This order needs a trailer: upload and save a delivery photo before starting the delivery.';
