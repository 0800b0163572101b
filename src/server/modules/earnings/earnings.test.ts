import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import { buy, createAddress, createProduct, type OrderJson } from '../../testing/commerce';
import { orders, orderStatusEvents } from '../../db/schema';
import { formatCents, parseCents, sumCents } from '../../../domain/money';
import type { OrderStatus } from '../../../domain/order-status';
import type { SellerEarnings, WeeklyEarnings } from '../../../domain/earnings';

/** A Wednesday afternoon in the marketplace time zone (America/Chicago), far from a week's edge. */
const NOW = new Date('2026-11-18T18:00:00.000Z');
const DAY_MS = 24 * 60 * 60 * 1000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: () => NOW });
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

const get = (user: TestUser, url: string) => as(t, user, { method: 'GET', url });

/** A seller with `count` paid orders of different sizes, all pending. */
async function sellerWithOrders(count: number) {
  const seller = await signedInAs(t, 'seller');
  const buyer = await signedInAs(t, 'buyer');
  const address = await createAddress(t, buyer.id);
  await createAddress(t, seller.id);
  const product = await createProduct(t, seller.id, { price: '123.45', stock: 100 });
  const placed: OrderJson[] = [];
  for (let i = 1; i <= count; i++) {
    const [order] = await buy(t, buyer, {
      items: [{ productId: product.id, quantity: i }],
      isPickup: false,
      deliveryAddressId: address.id,
    });
    if (!order) throw new Error('no order');
    placed.push(order);
  }
  return { seller, buyer, orders: placed };
}

/** Moves an order to `status` as if its party had done so at `at` (the status calls are tested elsewhere). */
async function finish(orderId: string, status: OrderStatus, at: Date = NOW) {
  await t.database.db.update(orders).set({ status, updatedAt: at }).where(eq(orders.id, orderId));
  await t.database.db
    .insert(orderStatusEvents)
    .values({ orderId, fromStatus: 'pending', toStatus: status, createdAt: at });
}

async function storedEarnings(ids: string[]): Promise<string[]> {
  const rows = await t.database.db
    .select({ sellerEarnings: orders.sellerEarnings })
    .from(orders)
    .where(inArray(orders.id, ids));
  return rows.map((row) => row.sellerEarnings);
}

describe('seller earnings (docs/rules/selling.md, Seller earnings)', () => {
  it('counts delivered and completed orders only, summing the sellerEarnings they stored', async () => {
    const { seller, orders: placed } = await sellerWithOrders(5);
    const [delivered, completed, pending, cancelled, inTransit] = placed;
    if (!delivered || !completed || !pending || !cancelled || !inTransit) throw new Error('scene');

    const none = await get(seller, '/api/earnings/seller');
    expect(none.statusCode).toBe(200);
    expect(none.json<SellerEarnings>()).toEqual({
      totalEarnings: '0.00',
      orderCount: 0,
      earningsTrend: null,
      orderCountTrend: null,
    });

    await finish(delivered.id, 'delivered');
    await finish(completed.id, 'completed');
    await finish(cancelled.id, 'cancelled');
    await finish(inTransit.id, 'in-transit');
    const expected = formatCents(
      sumCents((await storedEarnings([delivered.id, completed.id])).map(parseCents)),
    );
    // 1 and 2 units at 123.45 with the 10% sales commission (12.35 and 24.69): 111.10 + 222.21.
    expect(expected).toBe('333.31');

    const answer = await get(seller, '/api/earnings/seller');
    // Both finished this week, none the week before: no percent to show.
    expect(answer.json<SellerEarnings>()).toEqual({
      totalEarnings: expected,
      orderCount: 2,
      earningsTrend: null,
      orderCountTrend: null,
    });
  });

  it("gives the week's change of earnings and finished orders, by when each finished (server clock)", async () => {
    const { seller, orders: placed } = await sellerWithOrders(4);
    const [recent, older, oldest, tooOld] = placed;
    if (!recent || !older || !oldest || !tooOld) throw new Error('scene');
    // This week is the 7 days up to NOW; last week the 7 before; anything earlier counts in neither.
    await finish(recent.id, 'delivered', new Date(NOW.getTime() - 2 * DAY_MS));
    await finish(older.id, 'completed', new Date(NOW.getTime() - 8 * DAY_MS));
    await finish(oldest.id, 'delivered', new Date(NOW.getTime() - 13 * DAY_MS));
    await finish(tooOld.id, 'delivered', new Date(NOW.getTime() - 15 * DAY_MS));
    const [thisWeek, ...lastWeek] = (await storedEarnings([recent.id])).concat(
      await storedEarnings([older.id, oldest.id]),
    );
    // 1 unit at 123.45 this week (111.10); 2 and 3 units the week before (222.21 + 333.31).
    expect(thisWeek).toBe('111.10');
    expect(formatCents(sumCents(lastWeek.map(parseCents)))).toBe('555.52');

    const answer = (await get(seller, '/api/earnings/seller')).json<SellerEarnings>();
    expect(answer.orderCount).toBe(4);
    // 111.10 against 555.52 is −80%; 1 order against 2 is −50%.
    expect(answer.earningsTrend).toBe(-80);
    expect(answer.orderCountTrend).toBe(-50);
  });

  it('belongs to the caller: another seller sees their own (none); a buyer is refused', async () => {
    const { orders: placed } = await sellerWithOrders(1);
    await finish(placed[0]?.id ?? '', 'delivered');
    const other = await signedInAs(t, 'seller');
    expect((await get(other, '/api/earnings/seller')).json<SellerEarnings>()).toEqual({
      totalEarnings: '0.00',
      orderCount: 0,
      earningsTrend: null,
      orderCountTrend: null,
    });
    const buyer = await signedInAs(t, 'buyer');
    expect((await get(buyer, '/api/earnings/seller')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/earnings/seller' })).statusCode).toBe(401);
  });
});

describe('30-day sales', () => {
  it('sums the product subtotal of orders of the last 30 days that are not cancelled; own id or admin', async () => {
    const { seller, orders: placed } = await sellerWithOrders(3);
    const [a, b, c] = placed;
    if (!a || !b || !c) throw new Error('scene');
    await finish(b.id, 'cancelled');
    // Placed 31 days ago: out of the window.
    await t.database.db
      .update(orders)
      .set({ createdAt: new Date(NOW.getTime() - 31 * DAY_MS) })
      .where(eq(orders.id, c.id));

    const own = await get(seller, `/api/earnings/seller-30day/${seller.id}`);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toEqual({ total: '123.45' });

    const admin = await signedInAs(t, 'admin');
    expect((await get(admin, `/api/earnings/seller-30day/${seller.id}`)).json()).toEqual({ total: '123.45' });
    const other = await signedInAs(t, 'seller');
    const refused = await get(other, `/api/earnings/seller-30day/${seller.id}`);
    expect(refused.statusCode).toBe(404);
    expect(refused.body).not.toContain('123.45');
  });
});

describe('weekly earnings', () => {
  it('answers the last 12 weeks, Monday first, with each order in the week it finished', async () => {
    const { seller, orders: placed } = await sellerWithOrders(4);
    const [thisWeek, threeWeeksAgo, tooOld, notFinished] = placed;
    if (!thisWeek || !threeWeeksAgo || !tooOld || !notFinished) throw new Error('scene');
    await finish(thisWeek.id, 'delivered', new Date(NOW.getTime() - DAY_MS));
    await finish(threeWeeksAgo.id, 'completed', new Date(NOW.getTime() - 21 * DAY_MS));
    await finish(tooOld.id, 'delivered', new Date(NOW.getTime() - 13 * 7 * DAY_MS));
    const [thisWeekEarnings, olderEarnings] = [
      (await storedEarnings([thisWeek.id]))[0],
      (await storedEarnings([threeWeeksAgo.id]))[0],
    ];

    const response = await get(seller, '/api/earnings/seller/weekly');
    expect(response.statusCode).toBe(200);
    const weeks = response.json<WeeklyEarnings>();
    expect(weeks).toHaveLength(12);
    // NOW is Wednesday 18 November 2026 in Chicago: its week starts on Monday the 16th.
    expect(weeks[11]?.weekStart).toBe('2026-11-16');
    expect(weeks[0]?.weekStart).toBe('2026-08-31');
    expect(weeks[11]).toEqual({ weekStart: '2026-11-16', earnings: thisWeekEarnings, orderCount: 1 });
    expect(weeks[8]).toEqual({ weekStart: '2026-10-26', earnings: olderEarnings, orderCount: 1 });
    const others = weeks.filter((_, index) => index !== 8 && index !== 11);
    expect(others.every((week) => week.earnings === '0.00' && week.orderCount === 0)).toBe(true);
  });
});
