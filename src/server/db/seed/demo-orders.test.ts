import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { as, createTestApp, signIn, type TestApp } from '../../testing/test-app';
import { orderItems, orders, orderStatusEvents, payments, products, refunds } from '../schema';
import { DEMO_PASSWORD, seedDemoData } from './demo';
import { seedDemoOrders } from './demo-orders';
import { ORDER_STATUSES } from '../../../domain/order-status';
import { parseCents } from '../../../domain/money';
import { reconcile } from '../../modules/ledger/reconcile';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedDemoData(t.database.db, { storage: t.storage });
});
afterAll(async () => {
  await t.close();
});

describe('demo orders', () => {
  it('cover every status, with amounts that add up, events and a payment each', async () => {
    const rows = await t.database.db.select().from(orders);
    expect(new Set(rows.map((o) => o.status))).toEqual(new Set(ORDER_STATUSES));
    for (const order of rows) {
      const total = parseCents(order.total);
      expect(
        parseCents(order.sellerEarnings) + parseCents(order.driverEarnings) + parseCents(order.platformFee),
      ).toBe(total);
      const [payment] = await t.database.db
        .select()
        .from(payments)
        .where(eq(payments.id, order.paymentId ?? ''));
      expect(payment?.amount).toBe(order.total);
      const events = await t.database.db
        .select()
        .from(orderStatusEvents)
        .where(eq(orderStatusEvents.orderId, order.id));
      expect(events.at(-1)?.toStatus ?? 'pending').toBe(order.status);
    }
    // Each order is made of products that allow its way of delivery.
    for (const order of rows) {
      const items = await t.database.db
        .select({ product: products })
        .from(orderItems)
        .innerJoin(products, eq(products.id, orderItems.productId))
        .where(eq(orderItems.orderId, order.id));
      for (const { product } of items) {
        if (order.isPickup) expect(product.offerPickup).toBe(true);
        expect(product.sellerDelivery).toBe(order.sellerDelivery);
        expect(product.createdAt.getTime()).toBeLessThanOrEqual(order.createdAt.getTime());
      }
    }
    const cancelled = rows.find((o) => o.status === 'cancelled');
    expect(
      await t.database.db
        .select()
        .from(refunds)
        .where(eq(refunds.orderId, cancelled?.id ?? '')),
    ).toHaveLength(1);
    const stock = await t.database.db.select({ stock: products.stock }).from(products);
    for (const row of stock) expect(row.stock).toBeGreaterThanOrEqual(0);
  });

  it('show in My Orders for the demo buyer, and are made only once', async () => {
    const cookie = await signIn(t, 'buyer@example.com', DEMO_PASSWORD);
    const list = await as(t, { cookie }, { method: 'GET', url: '/api/orders?as=buyer' });
    expect(list.statusCode).toBe(200);
    expect(list.json<unknown[]>().length).toBeGreaterThanOrEqual(4);
    expect(await seedDemoOrders(t.database.db)).toBe(0);
  });

  it('reconcile with the ledger: charges, the refund, owed payouts and fees (docs/decisions/0013-money-movement.md)', async () => {
    const report = await reconcile(t.database.db);
    expect(report.discrepancies).toEqual([]);
    expect(report.finishedOrders).toBeGreaterThan(0);
    expect(report.owedPayouts).toBeGreaterThan(0);
    expect(report.platformBalance).toBeGreaterThan(0);
  });
});
