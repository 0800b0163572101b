import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, signIn, type TestApp } from '../../testing/test-app';
import { addresses, availabilitySchedules, blackoutDates, users } from '../schema';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemoData } from './demo';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedDemoData(t.database.db);
});
afterAll(async () => {
  await t.close();
});

describe('the demo marketplace', () => {
  it('lets every demo account sign in with the printed password', async () => {
    for (const account of DEMO_ACCOUNTS) {
      const cookie = await signIn(t, account.email, DEMO_PASSWORD);
      const me = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } });
      expect(me.json()).toMatchObject({ email: account.email, role: account.role });
    }
  });

  it('gives every demo user one primary address with coordinates in the Chicago area', async () => {
    const rows = await t.database.db
      .select({ email: users.email, latitude: addresses.latitude, longitude: addresses.longitude })
      .from(addresses)
      .innerJoin(users, eq(users.id, addresses.userId))
      .where(eq(addresses.isPrimary, true));
    expect(rows.map((r) => r.email).sort()).toEqual(DEMO_ACCOUNTS.map((a) => a.email).sort());
    for (const row of rows) {
      expect(Number(row.latitude)).toBeGreaterThan(41.5);
      expect(Number(row.latitude)).toBeLessThan(42.3);
      expect(Number(row.longitude)).toBeGreaterThan(-88.2);
      expect(Number(row.longitude)).toBeLessThan(-87.5);
    }
  });

  it('gives demo sellers a weekly schedule, a blackout and pickup slots', async () => {
    const [seller] = await t.database.db.select().from(users).where(eq(users.email, 'seller@example.com'));
    if (!seller) throw new Error('no demo seller');
    const schedules = await t.database.db
      .select()
      .from(availabilitySchedules)
      .where(eq(availabilitySchedules.userId, seller.id));
    expect(schedules.map((s) => s.dayOfWeek).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    const blackouts = await t.database.db
      .select()
      .from(blackoutDates)
      .where(eq(blackoutDates.userId, seller.id));
    expect(blackouts).toHaveLength(1);
    const slots = await t.app.inject({ method: 'GET', url: `/api/availability/slots/${seller.id}` });
    expect(slots.statusCode).toBe(200);
    expect(slots.json().length).toBeGreaterThan(50);
  });

  it('does nothing on a database that already has users', async () => {
    expect((await seedDemoData(t.database.db)).seeded).toBe(false);
  });
});
