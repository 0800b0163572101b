import crypto from 'node:crypto';
import { and, asc, count, eq, gt, inArray } from 'drizzle-orm';
import type { Db } from '../client';
import {
  addresses,
  commissionSettings,
  orderItems,
  orders,
  orderStatusEvents,
  payments,
  products,
  refunds,
  users,
} from '../schema';
import {
  computeOrderMoney,
  DEFAULT_COMMISSION_RATES,
  deliveryFeeFor,
  parseCommissionSettings,
} from '../../../domain/fees';
import { formatCents, parseCents } from '../../../domain/money';
import { isFulfilled, type OrderStatus } from '../../../domain/order-status';
import { addressText, pickupText, type PricedCheckout } from '../../modules/checkout/checkout.service';
import { newDeliveryCode } from '../../modules/orders/delivery-code';
import { newOrderNumber } from '../../modules/orders/order-number';
import { orderMoneyColumns } from '../../modules/orders/place-orders';
import { recordCharge, recordRefundMade } from '../../modules/ledger/ledger.service';
import { recordOrderPayouts } from '../../modules/payouts/record-order-payouts';

/**
 * Demo orders in every status (docs/rules/running.md, Running modes and adapters), made from the demo
 * sellers' products the way a real checkout makes them: amounts by the domain's fee and commission functions,
 * a succeeded test payment with its priced checkout, stock taken, status events with actors and times, a
 * refund for the cancelled one, owed payouts for the finished ones, and their movements in the ledger. Does
 * nothing when any order exists or the demo sellers have no products yet.
 */

type ProductRow = typeof products.$inferSelect;
type Path = 'driver' | 'seller' | 'pickup';

interface DemoOrderSpec {
  buyer: string;
  seller: string;
  path: Path;
  /** Each step after "pending": status, who made it, and hours after the order was placed. */
  steps: { status: OrderStatus; by: 'buyer' | 'seller' | 'driver'; after: number }[];
  driver?: string;
  hoursAgo: number;
  trailer?: boolean;
}

const SPECS: DemoOrderSpec[] = [
  {
    buyer: 'buyer@example.com',
    seller: 'seller@example.com',
    path: 'pickup',
    hoursAgo: 20 * 24,
    steps: [
      { status: 'ready_for_pickup', by: 'seller', after: 20 },
      { status: 'completed', by: 'seller', after: 26 },
    ],
  },
  {
    buyer: 'buyer@example.com',
    seller: 'seller2@example.com',
    path: 'driver',
    driver: 'driver2@example.com',
    hoursAgo: 12 * 24,
    steps: [
      { status: 'assigned', by: 'driver', after: 1 },
      { status: 'in-transit', by: 'driver', after: 3 },
      { status: 'delivered', by: 'driver', after: 4 },
    ],
  },
  {
    buyer: 'buyer2@example.com',
    seller: 'seller@example.com',
    path: 'driver',
    hoursAgo: 8 * 24,
    steps: [{ status: 'cancelled', by: 'buyer', after: 2 }],
  },
  {
    buyer: 'buyer@example.com',
    seller: 'seller@example.com',
    path: 'driver',
    driver: 'driver@example.com',
    hoursAgo: 26,
    steps: [
      { status: 'assigned', by: 'driver', after: 1 },
      { status: 'in-transit', by: 'driver', after: 25 },
    ],
  },
  {
    buyer: 'buyer2@example.com',
    seller: 'seller2@example.com',
    path: 'seller',
    hoursAgo: 30,
    steps: [{ status: 'in-transit', by: 'seller', after: 28 }],
  },
  {
    buyer: 'buyer@example.com',
    seller: 'seller2@example.com',
    path: 'driver',
    driver: 'driver@example.com',
    hoursAgo: 5,
    steps: [{ status: 'assigned', by: 'driver', after: 2 }],
  },
  {
    buyer: 'buyer2@example.com',
    seller: 'seller2@example.com',
    path: 'pickup',
    hoursAgo: 3,
    steps: [{ status: 'ready_for_pickup', by: 'seller', after: 1 }],
  },
  { buyer: 'buyer@example.com', seller: 'seller@example.com', path: 'driver', hoursAgo: 1, steps: [] },
  {
    buyer: 'buyer2@example.com',
    seller: 'seller2@example.com',
    path: 'driver',
    hoursAgo: 0.5,
    steps: [],
    trailer: true,
  },
];

const HOUR_MS = 60 * 60 * 1000;

/** The product an order of this path would really be made of, falling back to any in stock. */
function pickProduct(
  candidates: ProductRow[],
  spec: DemoOrderSpec,
  used: Set<string>,
): ProductRow | undefined {
  const fits = (p: ProductRow) => {
    if (spec.path === 'pickup') return p.offerPickup;
    if (spec.path === 'seller') return p.sellerDelivery;
    // Driver orders past "pending" avoid trailers (those need a delivery photo first).
    return (
      !p.sellerDelivery && (spec.trailer ? p.requiresTrailer : spec.steps.length === 0 || !p.requiresTrailer)
    );
  };
  const fresh = candidates.filter((p) => !used.has(p.id));
  return (
    fresh.find(fits) ??
    candidates.find(fits) ??
    (spec.path === 'seller' ? undefined : fresh.find((p) => !p.sellerDelivery))
  );
}

export async function seedDemoOrders(db: Db, now: Date = new Date()): Promise<number> {
  const [existing] = await db.select({ n: count() }).from(orders);
  if ((existing?.n ?? 0) > 0) return 0;
  const people = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(
      inArray(users.email, [...new Set(SPECS.flatMap((s) => [s.buyer, s.seller, s.driver ?? s.buyer]))]),
    );
  const idOf = new Map(people.map((p) => [p.email, p.id]));
  const sellerIds = [...new Set(SPECS.map((s) => idOf.get(s.seller)).filter((id): id is string => !!id))];
  if (sellerIds.length === 0) return 0;
  const stock = await db
    .select()
    .from(products)
    .where(and(inArray(products.sellerId, sellerIds), eq(products.available, true), gt(products.stock, 3)))
    .orderBy(asc(products.createdAt), asc(products.id));
  if (stock.length === 0) return 0;
  const primary = await db
    .select()
    .from(addresses)
    .where(and(inArray(addresses.userId, [...idOf.values()]), eq(addresses.isPrimary, true)));
  const addressOf = new Map(primary.map((a) => [a.userId, a]));
  const [settings] = await db.select().from(commissionSettings).where(eq(commissionSettings.id, 1));
  const rates = settings ? parseCommissionSettings(settings) : DEFAULT_COMMISSION_RATES;

  let made = 0;
  await db.transaction(async (tx) => {
    const used = new Set<string>();
    const salesOf: { sellerId: string; at: number; subtotal: number }[] = [];
    for (const spec of [...SPECS].sort((a, b) => b.hoursAgo - a.hoursAgo)) {
      const buyerId = idOf.get(spec.buyer);
      const sellerId = idOf.get(spec.seller);
      if (!buyerId || !sellerId) continue;
      const placedAt = new Date(now.getTime() - spec.hoursAgo * HOUR_MS);
      // Only what was already listed when the order was placed.
      const product = pickProduct(
        stock.filter((p) => p.sellerId === sellerId && p.createdAt.getTime() <= placedAt.getTime()),
        spec,
        used,
      );
      if (!product) continue;
      used.add(product.id);
      const quantity = 1;
      const price = parseCents(product.price);
      const isPickup = spec.path === 'pickup';
      const fee = deliveryFeeFor(
        [
          {
            requiresTrailer: product.requiresTrailer,
            sellerDelivery: product.sellerDelivery,
            sellerDeliveryFee:
              product.sellerDeliveryFee === null ? null : parseCents(product.sellerDeliveryFee),
          },
        ],
        isPickup,
      );
      const seller30DaySales = salesOf
        .filter((s) => s.sellerId === sellerId && s.at >= placedAt.getTime() - 30 * 24 * HOUR_MS)
        .reduce((sum, s) => sum + s.subtotal, 0);
      const amounts = computeOrderMoney(
        {
          productSubtotal: price * quantity,
          deliveryFee: fee.deliveryFee,
          isPickup,
          sellerDelivery: fee.sellerDelivery,
          seller30DaySales,
        },
        rates,
      );
      const buyerAddress = addressOf.get(buyerId);
      const sellerAddress = addressOf.get(sellerId);
      const deliveryText = buyerAddress ? addressText(buyerAddress) : 'Address not available';
      const pickupAddress = sellerAddress ? addressText(sellerAddress) : null;
      const scheduledPickupTime = isPickup ? new Date(placedAt.getTime() + 24 * HOUR_MS) : null;
      const checkout: PricedCheckout = {
        version: 1,
        buyerId,
        isPickup,
        deliveryAddressId: isPickup ? null : (buyerAddress?.id ?? null),
        deliveryAddress: isPickup ? null : deliveryText,
        deliveryNotes: null,
        total: amounts.total,
        orders: [
          {
            sellerId,
            sellerDelivery: fee.sellerDelivery,
            requiresTrailer: fee.requiresTrailer,
            scheduledPickupTime: scheduledPickupTime?.toISOString() ?? null,
            pickupAddressId: sellerAddress?.id ?? null,
            pickupAddress,
            productSubtotal: amounts.productSubtotal,
            deliveryFee: amounts.deliveryFee,
            items: [{ productId: product.id, name: product.name, quantity, price }],
          },
        ],
      };
      const cancelled = spec.steps.some((step) => step.status === 'cancelled');
      const [payment] = await tx
        .insert(payments)
        .values({
          buyerId,
          provider: 'test',
          providerPaymentId: `tp_demo_${crypto.randomBytes(10).toString('hex')}`,
          amount: formatCents(amounts.total),
          status: cancelled ? 'refunded' : 'succeeded',
          checkout,
          processedAt: placedAt,
          createdAt: placedAt,
          updatedAt: placedAt,
        })
        .returning();
      if (!payment) throw new Error('demo payment insert returned no row');
      await recordCharge(tx, payment, placedAt);
      const last = spec.steps.at(-1);
      const status = last?.status ?? 'pending';
      const lastAt = new Date(placedAt.getTime() + (last?.after ?? 0) * HOUR_MS);
      const driverId = spec.driver ? (idOf.get(spec.driver) ?? null) : null;
      let order: typeof orders.$inferSelect | undefined;
      for (let attempt = 0; attempt < 8 && !order; attempt++) {
        [order] = await tx
          .insert(orders)
          .values({
            orderNumber: newOrderNumber(),
            buyerId,
            sellerId,
            status,
            isPickup,
            sellerDelivery: fee.sellerDelivery,
            requiresTrailer: fee.requiresTrailer,
            deliveryCode: newDeliveryCode({ isPickup, sellerDelivery: fee.sellerDelivery }),
            deliveredAt: status === 'delivered' ? lastAt : null,
            ...orderMoneyColumns(amounts),
            deliveryAddress: isPickup ? pickupText(pickupAddress) : deliveryText,
            deliveryAddressId: isPickup ? null : (buyerAddress?.id ?? null),
            pickupAddressId: sellerAddress?.id ?? null,
            driverId,
            scheduledPickupTime,
            estimatedDeliveryTime: status === 'in-transit' ? new Date(now.getTime() + HOUR_MS) : null,
            paymentIntentId: payment.providerPaymentId,
            paymentId: payment.id,
            createdAt: placedAt,
            updatedAt: lastAt,
          })
          .onConflictDoNothing({ target: orders.orderNumber })
          .returning();
      }
      if (!order) throw new Error('Could not draw a free demo order number');
      await tx.insert(orderItems).values({
        orderId: order.id,
        productId: product.id,
        quantity,
        price: product.price,
        createdAt: placedAt,
      });
      const actorOf = { buyer: buyerId, seller: sellerId, driver: driverId };
      let from: OrderStatus = 'pending';
      await tx.insert(orderStatusEvents).values([
        { orderId: order.id, fromStatus: null, toStatus: 'pending', actorId: buyerId, createdAt: placedAt },
        ...spec.steps.map((step) => {
          const event = {
            orderId: order.id,
            fromStatus: from,
            toStatus: step.status,
            actorId: actorOf[step.by],
            createdAt: new Date(placedAt.getTime() + step.after * HOUR_MS),
          };
          from = step.status;
          return event;
        }),
      ]);
      if (cancelled) {
        const [refund] = await tx
          .insert(refunds)
          .values({
            paymentId: payment.id,
            orderId: order.id,
            amount: formatCents(amounts.total),
            reason: 'Order cancelled',
            providerRefundId: `tre_demo_${crypto.randomBytes(8).toString('hex')}`,
            status: 'succeeded',
            createdAt: lastAt,
          })
          .returning();
        if (refund?.providerRefundId) await recordRefundMade(tx, refund, refund.providerRefundId, lastAt);
      } else {
        const [row] = await tx
          .update(products)
          .set({ stock: product.stock - quantity })
          .where(eq(products.id, product.id))
          .returning({ stock: products.stock });
        product.stock = row?.stock ?? product.stock;
        salesOf.push({ sellerId, at: placedAt.getTime(), subtotal: amounts.productSubtotal });
      }
      // The demo's sellers and drivers have not set up payouts yet: their earnings are owed until they do.
      if (isFulfilled(status)) await recordOrderPayouts(tx, order, lastAt, 0);
      made += 1;
    }
  });
  return made;
}
