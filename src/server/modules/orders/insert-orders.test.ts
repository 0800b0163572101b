import { asc, eq, gt, max } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveEvents, orderItems, orders, orderStatusEvents } from '../../db/schema';
import { orderChangeEvents } from '../../platform/live-events';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { orderInTransit } from '../../testing/payout-scenes';
import { insertOrdersWithItems, type NewOrder } from './orders.queries';

/**
 * The paid checkout's one statement that writes its orders, their items and first events
 * (docs/decisions/0028-checkout-throughput.md, Statements built once), built once
 * whatever the number of orders and items.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function newestEventId(): Promise<number> {
  const [row] = await t.database.db.select({ newest: max(liveEvents.id) }).from(liveEvents);
  return row?.newest ?? 0;
}

describe('inserting the orders of a paid checkout', () => {
  it('writes every new order with its own items and event, and skips one whose number is taken', async () => {
    const scene = await orderInTransit(t);
    const { db } = t.database;
    const [taken] = await db.select().from(orders).where(eq(orders.id, scene.order.id));
    if (!taken) throw new Error('the scene has no order');
    const [line] = await db.select().from(orderItems).where(eq(orderItems.orderId, taken.id));
    if (!line) throw new Error('the scene has no item');
    const at = new Date('2026-11-20T10:00:00.000Z');
    const values = (orderNumber: string): NewOrder['values'] => ({
      orderNumber,
      buyerId: taken.buyerId,
      sellerId: taken.sellerId,
      status: 'pending',
      isPickup: false,
      sellerDelivery: false,
      requiresTrailer: false,
      deliveryCode: null,
      productSubtotal: '12.50',
      deliveryFee: '5.00',
      total: '17.50',
      sellerEarnings: '11.25',
      driverEarnings: '4.50',
      purchasePlatformFee: '1.25',
      deliveryPlatformFee: '0.50',
      platformFee: '1.75',
      salesCommissionRate: '0.1000',
      deliveryCommissionRate: '0.1000',
      seller30DaySales: '0.00',
      deliveryAddress: '1 Test Street',
      deliveryAddressId: taken.deliveryAddressId,
      deliveryNotes: 'Ring twice',
      pickupAddressId: taken.pickupAddressId,
      scheduledPickupTime: null,
      paymentIntentId: taken.paymentIntentId,
      paymentId: taken.paymentId,
      createdAt: at,
      updatedAt: at,
    });
    const announce = (orderNumber: string) =>
      orderChangeEvents({ id: '', driverId: null, ...values(orderNumber) }, null, taken.buyerId);
    const newestBefore = await newestEventId();
    const fresh = `T-${crypto.randomUUID().slice(0, 8)}`;
    const other = `T-${crypto.randomUUID().slice(0, 8)}`;
    const placed = await db.transaction((tx) =>
      insertOrdersWithItems(
        tx,
        [
          {
            values: values(taken.orderNumber),
            items: [{ productId: line.productId, quantity: 9, price: '1.00' }],
            announce: announce(taken.orderNumber),
          },
          {
            values: values(fresh),
            items: [
              { productId: line.productId, quantity: 2, price: '2.50' },
              { productId: line.productId, quantity: 3, price: '2.50' },
            ],
            announce: announce(fresh),
          },
          {
            values: values(other),
            items: [{ productId: line.productId, quantity: 1, price: '12.50' }],
            announce: announce(other),
          },
        ],
        { actorId: taken.buyerId, createdAt: at },
      ),
    );

    expect(placed.map((row) => [row.order.orderNumber, row.itemCount]).sort()).toEqual(
      [
        [fresh, 5],
        [other, 1],
      ].sort(),
    );
    const made = placed.find((row) => row.order.orderNumber === fresh)?.order;
    expect(made).toMatchObject({
      status: 'pending',
      total: '17.50',
      deliveryNotes: 'Ring twice',
      deliveryAddressId: taken.deliveryAddressId,
      createdAt: at,
    });
    expect(placed.find((row) => row.order.orderNumber === fresh)?.pickup?.id).toBe(taken.pickupAddressId);
    if (!made) return;
    const items = await db
      .select({ quantity: orderItems.quantity, price: orderItems.price })
      .from(orderItems)
      .where(eq(orderItems.orderId, made.id))
      .orderBy(asc(orderItems.quantity));
    expect(items).toEqual([
      { quantity: 2, price: '2.50' },
      { quantity: 3, price: '2.50' },
    ]);
    const events = await db.select().from(orderStatusEvents).where(eq(orderStatusEvents.orderId, made.id));
    expect(events.map((event) => [event.fromStatus, event.toStatus, event.actorId])).toEqual([
      [null, 'pending', taken.buyerId],
    ]);
    // Each order inserted is announced to its parties and to the drivers, with its own id, in the
    // order given; the order whose number was taken is not.
    const announced = await db
      .select({ id: liveEvents.id, data: liveEvents.data, audience: liveEvents.audience })
      .from(liveEvents)
      .where(gt(liveEvents.id, newestBefore))
      .orderBy(asc(liveEvents.id));
    const otherId = placed.find((row) => row.order.orderNumber === other)?.order.id;
    expect(announced.map(({ data }) => data)).toEqual([
      expect.objectContaining({ type: 'order.changed', orderId: made.id, orderNumber: fresh, from: null }),
      expect.objectContaining({ type: 'offers.changed', orderId: made.id, orderNumber: fresh, isNew: true }),
      expect.objectContaining({ type: 'order.changed', orderId: otherId, orderNumber: other }),
      expect.objectContaining({ type: 'offers.changed', orderId: otherId, orderNumber: other }),
    ]);
    expect(announced[0]?.audience).toEqual([taken.buyerId, taken.sellerId]);
    // The order whose number was taken kept its own item, and nothing was added to it.
    const kept = await db.select().from(orderItems).where(eq(orderItems.orderId, taken.id));
    expect(kept.map((row) => row.quantity)).toEqual([line.quantity]);
  });
});
