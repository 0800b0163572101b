import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { confirm, paymentRow, startedPaymentFor, stockOf } from '../../testing/commerce';
import { ledgerEntries, orders } from '../../db/schema';

/**
 * An order number drawn twice (docs/decisions/0025-checkout-statements.md, One statement places a
 * fresh checkout): the numbers the next draws give are queued here, the rest are drawn as usual.
 */
const draws = vi.hoisted(() => ({ queue: [] as string[] }));
vi.mock('../orders/order-number', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../orders/order-number')>();
  return { ...actual, newOrderNumber: () => draws.queue.shift() ?? actual.newOrderNumber() };
});

const HOUR = 60 * 60 * 1000;
let offsetMs = 0;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: () => new Date(Date.now() + offsetMs) });
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  offsetMs = 0;
  draws.queue = [];
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

/** The number of an order placed for this test to collide with. */
async function aTakenNumber(): Promise<string> {
  const { buyer, paymentId } = await startedPaymentFor(t, { stock: 5, quantity: 2 });
  expect((await confirm(t, buyer, paymentId)).statusCode).toBe(200);
  const [order] = await t.database.db.select().from(orders).where(eq(orders.paymentId, paymentId));
  if (!order) throw new Error('no order placed');
  return order.orderNumber;
}

async function expectPlacedOnce(paymentId: string, productId: string, taken: string) {
  const placed = await t.database.db.select().from(orders).where(eq(orders.paymentId, paymentId));
  expect(placed).toHaveLength(1);
  expect(placed[0]?.orderNumber).not.toBe(taken);
  expect(await stockOf(t, productId)).toBe(3);
  const payment = await paymentRow(t, paymentId);
  expect(payment).toMatchObject({ status: 'succeeded' });
  expect(payment?.processedAt).not.toBeNull();
  const charges = await t.database.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.paymentId, paymentId), eq(ledgerEntries.kind, 'charge')));
  expect(charges.map((entry) => entry.amount)).toEqual([payment?.amount]);
}

describe('an order number drawn twice', () => {
  it('is drawn again while the quote holds: the payment is claimed, its stock taken and its charge written once', async () => {
    const taken = await aTakenNumber();
    const { product, buyer, paymentId } = await startedPaymentFor(t, { stock: 5, quantity: 2 });
    // Twice: the statement that failed wrote nothing, or the next would find the payment claimed.
    draws.queue = [taken, taken];
    const confirmed = await confirm(t, buyer, paymentId);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json<{ orders: unknown[] }>().orders).toHaveLength(1);
    expect(draws.queue).toEqual([]);
    await expectPlacedOnce(paymentId, product.id, taken);
  });

  it('is drawn again for a late payment, priced again in its transaction', async () => {
    const taken = await aTakenNumber();
    const { product, buyer, paymentId } = await startedPaymentFor(t, { stock: 5, quantity: 2 });
    offsetMs = 2 * HOUR;
    draws.queue = [taken];
    const confirmed = await confirm(t, buyer, paymentId);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json<{ orders: unknown[] }>().orders).toHaveLength(1);
    expect(draws.queue).toEqual([]);
    await expectPlacedOnce(paymentId, product.id, taken);
  });
});
