import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addresses, orders } from '../../db/schema';
import { createAddress } from '../../testing/commerce';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import type { DriverEarnings, DriverTrip } from '../../../domain/deliveries';

/**
 * Earnings a driver can plan with (docs/rules/deliveries.md, Deliveries): today, this week, the last
 * 8 weeks and each trip, counted when delivered, in the marketplace time zone (America/Chicago).
 */

/** Wednesday 18 November 2026, noon in Chicago: its week began on Monday the 16th. */
const NOW = new Date('2026-11-18T18:00:00.000Z');

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

/** An order of `driver` in `status`, delivered at `deliveredAt`, paying the driver `earnings`. */
async function delivery(
  driver: TestUser,
  scene: { buyer: TestUser; seller: TestUser; pickupId: string | null; deliveryId: string | null },
  {
    earnings,
    deliveredAt,
    status = 'delivered',
  }: { earnings: string; deliveredAt: Date; status?: 'delivered' | 'assigned' },
) {
  const [order] = await t.database.db
    .insert(orders)
    .values({
      buyerId: scene.buyer.id,
      sellerId: scene.seller.id,
      driverId: driver.id,
      orderNumber: `ORD-${crypto.randomBytes(4).toString('hex').toUpperCase()}`,
      status,
      productSubtotal: '100.00',
      // The shares add up, as the table requires: seller 90 + driver + platform 12 = total.
      deliveryFee: (Number(earnings) + 2).toFixed(2),
      total: (Number(earnings) + 102).toFixed(2),
      deliveryAddress: '1 Main St',
      pickupAddressId: scene.pickupId,
      deliveryAddressId: scene.deliveryId,
      sellerEarnings: '90.00',
      driverEarnings: earnings,
      purchasePlatformFee: '10.00',
      deliveryPlatformFee: '2.00',
      platformFee: '12.00',
      deliveredAt: status === 'delivered' ? deliveredAt : null,
      updatedAt: deliveredAt,
    })
    .returning();
  if (!order) throw new Error('no order');
  return order;
}

describe('GET /api/earnings/driver and /api/earnings/driver/trips', () => {
  it('answers today, this week, 8 weeks and each trip with its distance, by the marketplace clock', async () => {
    const driver = await signedInAs(t, 'driver');
    const other = await signedInAs(t, 'driver');
    const buyer = await signedInAs(t, 'buyer');
    const seller = await signedInAs(t, 'seller');
    const pickup = await createAddress(t, seller.id);
    const drop = await createAddress(t, buyer.id);
    // The drop-off about 10 miles north of the pickup (0.1449° of latitude).
    await t.database.db.update(addresses).set({ latitude: '39.9439000' }).where(eq(addresses.id, drop.id));
    const located = { buyer, seller, pickupId: pickup.id, deliveryId: drop.id };
    const unlocated = { buyer, seller, pickupId: null, deliveryId: null };

    const today = await delivery(driver, located, {
      earnings: '9.00',
      deliveredAt: new Date('2026-11-18T15:00:00Z'),
    });
    // Monday 00:30 in Chicago: this week.
    const monday = await delivery(driver, located, {
      earnings: '4.50',
      deliveredAt: new Date('2026-11-16T06:30:00Z'),
    });
    // Sunday 23:30 in Chicago, though Monday in UTC: last week.
    const sunday = await delivery(driver, located, {
      earnings: '3.00',
      deliveredAt: new Date('2026-11-16T05:30:00Z'),
    });
    const older = await delivery(driver, unlocated, {
      earnings: '6.00',
      deliveredAt: new Date('2026-10-28T18:00:00Z'),
    });
    // Not delivered, another driver's, and one older than the chart: none in the weeks.
    await delivery(driver, located, { earnings: '100.00', deliveredAt: NOW, status: 'assigned' });
    await delivery(other, located, { earnings: '50.00', deliveredAt: NOW });
    await delivery(driver, unlocated, { earnings: '1.00', deliveredAt: new Date('2026-08-01T18:00:00Z') });

    const answer = await as(t, driver, { method: 'GET', url: '/api/earnings/driver' });
    expect(answer.statusCode).toBe(200);
    const earnings = answer.json<DriverEarnings>();
    expect(earnings).toMatchObject({
      totalEarnings: '23.50',
      orderCount: 5,
      today: '9.00',
      thisWeek: '13.50',
    });
    expect(earnings.weekly).toHaveLength(8);
    expect(earnings.weekly[0]?.weekStart).toBe('2026-09-28');
    expect(earnings.weekly[7]).toEqual({ weekStart: '2026-11-16', earnings: '13.50', trips: 2 });
    expect(earnings.weekly[6]).toEqual({ weekStart: '2026-11-09', earnings: '3.00', trips: 1 });
    expect(earnings.weekly[4]).toEqual({ weekStart: '2026-10-26', earnings: '6.00', trips: 1 });
    expect(earnings.weekly.filter((week) => week.trips === 0)).toHaveLength(5);

    const trips = await as(t, driver, { method: 'GET', url: '/api/earnings/driver/trips?limit=4' });
    expect(trips.statusCode).toBe(200);
    const list = trips.json<DriverTrip[]>();
    expect(list.map((trip) => trip.orderNumber)).toEqual([
      today.orderNumber,
      monday.orderNumber,
      sunday.orderNumber,
      older.orderNumber,
    ]);
    expect(list[0]).toEqual({
      orderId: today.id,
      orderNumber: today.orderNumber,
      deliveredAt: '2026-11-18T15:00:00.000Z',
      pickupCity: 'Springfield',
      deliveryCity: 'Springfield',
      distance: 10,
      earnings: '9.00',
    });
    expect(list[3]).toMatchObject({ distance: null, pickupCity: null, earnings: '6.00' });
    const next = await as(t, driver, { method: 'GET', url: '/api/earnings/driver/trips?limit=4&offset=4' });
    expect(next.json<DriverTrip[]>().map((trip) => trip.earnings)).toEqual(['1.00']);
  });

  it('is the caller’s own, for drivers and admins; a bad page is a 400', async () => {
    const buyer = await signedInAs(t, 'buyer');
    expect((await as(t, buyer, { method: 'GET', url: '/api/earnings/driver/trips' })).statusCode).toBe(403);
    const admin = await signedInAs(t, 'admin');
    const mine = await as(t, admin, { method: 'GET', url: '/api/earnings/driver' });
    expect(mine.json<DriverEarnings>()).toMatchObject({
      totalEarnings: '0.00',
      today: '0.00',
      thisWeek: '0.00',
    });
    expect(
      (await as(t, admin, { method: 'GET', url: '/api/earnings/driver/trips?limit=0' })).statusCode,
    ).toBe(400);
    expect((await as(t, admin, { method: 'GET', url: '/api/earnings/driver/trips' })).json()).toEqual([]);
  });
});
