import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { availabilitySchedules } from '../../db/schema';
import {
  as,
  createTestApp,
  createUser,
  signedInAs,
  type TestApp,
  type TestUser,
} from '../../testing/test-app';

// Monday 2026-11-23, 8:10 AM in Chicago (the default MARKETPLACE_TZ).
const NOW = new Date('2026-11-23T14:10:00Z');
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

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

const weekday = { dayOfWeek: 1, startTime: '09:00', endTime: '17:00' };

function addSchedule(user: TestUser, payload: Record<string, unknown>) {
  return as(t, user, { method: 'POST', url: '/api/availability/schedules', payload });
}

function addBlackout(user: TestUser, payload: Record<string, unknown>) {
  return as(t, user, { method: 'POST', url: '/api/availability/blackouts', payload });
}

/** The Chicago calendar date of an instant, YYYY-MM-DD. */
function chicagoDate(iso: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago' }).format(new Date(iso));
}

describe('visitors', () => {
  it.each([
    ['GET', '/api/availability/schedules'],
    ['POST', '/api/availability/schedules'],
    ['DELETE', `/api/availability/schedules/${UNKNOWN_ID}`],
    ['GET', '/api/availability/blackouts'],
    ['POST', '/api/availability/blackouts'],
    ['DELETE', `/api/availability/blackouts/${UNKNOWN_ID}`],
  ] as const)('get 401 for %s %s', async (method, url) => {
    const payload =
      method === 'POST'
        ? url.endsWith('schedules')
          ? weekday
          : { startDate: '2026-12-24', endDate: '2026-12-26' }
        : undefined;
    const response = await t.app.inject({ method, url, ...(payload ? { payload } : {}) });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ message: 'Unauthorized', code: 'unauthorized' });
  });
});

describe('weekly schedule', () => {
  it('adds a time range and lists only the own ones, by day and start time', async () => {
    const seller = await signedInAs(t, 'seller');
    const other = await signedInAs(t, 'seller');
    await addSchedule(other, weekday);
    const late = await addSchedule(seller, { dayOfWeek: 3, startTime: '13:00', endTime: '18:00' });
    expect(late.statusCode).toBe(201);
    expect(late.json()).toEqual({
      id: expect.any(String),
      userId: seller.id,
      dayOfWeek: 3,
      startTime: '13:00',
      endTime: '18:00',
      isActive: true,
    });
    await addSchedule(seller, { dayOfWeek: 3, startTime: '08:00', endTime: '11:00' });
    await addSchedule(seller, weekday);
    const list = await as(t, seller, { method: 'GET', url: '/api/availability/schedules' });
    expect(list.statusCode).toBe(200);
    const body = list.json() as { dayOfWeek: number; startTime: string; userId: string }[];
    expect(body.map((s) => [s.dayOfWeek, s.startTime])).toEqual([
      [1, '09:00'],
      [3, '08:00'],
      [3, '13:00'],
    ]);
    expect(body.every((s) => s.userId === seller.id)).toBe(true);
  });

  it('is open to any role: drivers keep delivery hours, buyers too', async () => {
    for (const role of ['driver', 'buyer', 'admin'] as const) {
      const user = await signedInAs(t, role);
      expect((await addSchedule(user, weekday)).statusCode).toBe(201);
    }
  });

  it('accepts an end before the start (the spec does not check the order)', async () => {
    const seller = await signedInAs(t, 'seller');
    const response = await addSchedule(seller, { dayOfWeek: 5, startTime: '17:00', endTime: '09:00' });
    expect(response.statusCode).toBe(201);
  });

  it('refuses the same day and times twice with 409 naming them; an overlapping range is another entry', async () => {
    const seller = await signedInAs(t, 'seller');
    expect((await addSchedule(seller, weekday)).statusCode).toBe(201);
    const again = await addSchedule(seller, weekday);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'conflict',
      message: 'Monday 09:00 to 17:00 is already in your weekly schedule.',
    });
    // Overlaps are allowed (docs/decisions/0006-pickup-slots.md): the slots offer each time once.
    const morning = await addSchedule(seller, { dayOfWeek: 1, startTime: '08:00', endTime: '12:00' });
    expect(morning.statusCode).toBe(201);
    // Another day, or another user, may have the same times.
    expect((await addSchedule(seller, { ...weekday, dayOfWeek: 2 })).statusCode).toBe(201);
    expect((await addSchedule(await signedInAs(t, 'seller'), weekday)).statusCode).toBe(201);
    const list = await as(t, seller, { method: 'GET', url: '/api/availability/schedules' });
    expect(
      (list.json() as { dayOfWeek: number; startTime: string }[]).map((s) => [s.dayOfWeek, s.startTime]),
    ).toEqual([
      [1, '08:00'],
      [1, '09:00'],
      [2, '09:00'],
    ]);
  });

  it('stores one of two identical entries sent at once (the database refuses the second)', async () => {
    const seller = await signedInAs(t, 'seller');
    const sunday = { dayOfWeek: 0, startTime: '10:00', endTime: '14:00' };
    const answers = await Promise.all([1, 2, 3].map(() => addSchedule(seller, sunday)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409]);
    expect(answers.find((a) => a.statusCode === 409)?.json().message).toBe(
      'Sunday 10:00 to 14:00 is already in your weekly schedule.',
    );
    const list = await as(t, seller, { method: 'GET', url: '/api/availability/schedules' });
    expect(list.json()).toHaveLength(1);
  });

  it('answers 400 with a message per field, and writes nothing', async () => {
    const seller = await signedInAs(t, 'seller');
    const bad = await addSchedule(seller, { dayOfWeek: 7, startTime: '9am', endTime: '24:00' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({
      dayOfWeek: 'Day must be a whole number from 0 (Sunday) to 6 (Saturday)',
      startTime: 'Start time must be a time like 09:00 (HH:mm, 24-hour)',
      endTime: 'End time must be a time like 09:00 (HH:mm, 24-hour)',
    });
    const fraction = await addSchedule(seller, { ...weekday, dayOfWeek: 1.5 });
    expect(Object.keys(fraction.json().fields)).toEqual(['dayOfWeek']);
    const text = await addSchedule(seller, { ...weekday, dayOfWeek: 'Monday' });
    expect(Object.keys(text.json().fields)).toEqual(['dayOfWeek']);
    const missing = await addSchedule(seller, { dayOfWeek: 1 });
    expect(Object.keys(missing.json().fields).sort()).toEqual(['endTime', 'startTime']);
    const list = await as(t, seller, { method: 'GET', url: '/api/availability/schedules' });
    expect(list.json()).toEqual([]);
  });

  it('refuses keys a client may not set (mass assignment)', async () => {
    const seller = await signedInAs(t, 'seller');
    const other = await signedInAs(t, 'seller');
    const response = await addSchedule(seller, { ...weekday, isActive: false, userId: other.id });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ 'isActive,userId': expect.any(String) });
    const theirs = await as(t, other, { method: 'GET', url: '/api/availability/schedules' });
    expect(theirs.json()).toEqual([]);
  });

  it('deletes an own entry, and 404s it afterwards', async () => {
    const seller = await signedInAs(t, 'seller');
    const { id } = (await addSchedule(seller, weekday)).json() as { id: string };
    const removed = await as(t, seller, { method: 'DELETE', url: `/api/availability/schedules/${id}` });
    expect(removed.statusCode).toBe(204);
    expect(removed.body).toBe('');
    expect((await as(t, seller, { method: 'GET', url: '/api/availability/schedules' })).json()).toEqual([]);
    const again = await as(t, seller, { method: 'DELETE', url: `/api/availability/schedules/${id}` });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe('Schedule not found');
  });

  it("answers 404 for another user's entry (even to an admin) and leaves it in place", async () => {
    const owner = await signedInAs(t, 'seller');
    const { id } = (await addSchedule(owner, weekday)).json() as { id: string };
    for (const role of ['seller', 'admin'] as const) {
      const intruder = await signedInAs(t, role);
      const response = await as(t, intruder, { method: 'DELETE', url: `/api/availability/schedules/${id}` });
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('Schedule not found');
    }
    expect((await as(t, owner, { method: 'GET', url: '/api/availability/schedules' })).json()).toHaveLength(
      1,
    );
  });

  it('answers 400 for a malformed id and 404 for an unknown one', async () => {
    const seller = await signedInAs(t, 'seller');
    const malformed = await as(t, seller, { method: 'DELETE', url: '/api/availability/schedules/42' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().fields).toEqual({ id: 'Must be a valid id' });
    const unknown = await as(t, seller, {
      method: 'DELETE',
      url: `/api/availability/schedules/${UNKNOWN_ID}`,
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('blackout dates', () => {
  it('adds a range and lists only the own ones, by start date', async () => {
    const seller = await signedInAs(t, 'seller');
    const other = await signedInAs(t, 'seller');
    await addBlackout(other, { startDate: '2026-12-01', endDate: '2026-12-01' });
    const holidays = await addBlackout(seller, {
      startDate: '2026-12-24',
      endDate: '2026-12-26',
      reason: '  Holidays ',
    });
    expect(holidays.statusCode).toBe(201);
    expect(holidays.json()).toEqual({
      id: expect.any(String),
      userId: seller.id,
      startDate: '2026-12-24',
      endDate: '2026-12-26',
      reason: 'Holidays',
    });
    const oneDay = await addBlackout(seller, { startDate: '2026-12-01', endDate: '2026-12-01' });
    expect(oneDay.json().reason).toBeNull();
    const blank = await addBlackout(seller, { startDate: '2027-01-01', endDate: '2027-01-01', reason: '' });
    expect(blank.json().reason).toBeNull();
    const list = await as(t, seller, { method: 'GET', url: '/api/availability/blackouts' });
    expect(list.statusCode).toBe(200);
    expect((list.json() as { startDate: string }[]).map((b) => b.startDate)).toEqual([
      '2026-12-01',
      '2026-12-24',
      '2027-01-01',
    ]);
  });

  it('refuses an end date before the start date', async () => {
    const seller = await signedInAs(t, 'seller');
    const response = await addBlackout(seller, { startDate: '2026-12-10', endDate: '2026-12-09' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ endDate: 'End date must be on or after the start date' });
  });

  it('answers 400 per field for dates that are not real calendar dates, a long reason or unknown keys', async () => {
    const seller = await signedInAs(t, 'seller');
    const bad = await addBlackout(seller, {
      startDate: '2026-02-30',
      endDate: '12/31/2026',
      reason: 'x'.repeat(201),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({
      startDate: 'Start date must be a date like 2026-11-23 (YYYY-MM-DD)',
      endDate: 'End date must be a date like 2026-11-23 (YYYY-MM-DD)',
      reason: 'Reason must be at most 200 characters',
    });
    const leap = await addBlackout(seller, { startDate: '2028-02-29', endDate: '2028-02-29' });
    expect(leap.statusCode).toBe(201);
    const extra = await addBlackout(seller, {
      startDate: '2026-12-01',
      endDate: '2026-12-02',
      userId: seller.id,
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().fields).toEqual({ userId: expect.any(String) });
    const list = await as(t, seller, { method: 'GET', url: '/api/availability/blackouts' });
    expect(list.json()).toHaveLength(1);
  });

  it("deletes an own range; another user's is 404 and stays", async () => {
    const owner = await signedInAs(t, 'seller');
    const intruder = await signedInAs(t, 'driver');
    const { id } = (await addBlackout(owner, { startDate: '2026-12-24', endDate: '2026-12-26' })).json() as {
      id: string;
    };
    const denied = await as(t, intruder, { method: 'DELETE', url: `/api/availability/blackouts/${id}` });
    expect(denied.statusCode).toBe(404);
    expect(denied.json().message).toBe('Blackout date not found');
    const removed = await as(t, owner, { method: 'DELETE', url: `/api/availability/blackouts/${id}` });
    expect(removed.statusCode).toBe(204);
    expect((await as(t, owner, { method: 'GET', url: '/api/availability/blackouts' })).json()).toEqual([]);
    const malformed = await as(t, owner, { method: 'DELETE', url: '/api/availability/blackouts/nope' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().fields).toEqual({ id: 'Must be a valid id' });
  });
});

describe('GET /api/availability/slots/{sellerId}', () => {
  it('offers 30-minute slots of every scheduled day for 14 days, from an hour after now, minus blackouts', async () => {
    const seller = await signedInAs(t, 'seller');
    for (const dayOfWeek of [0, 1, 2, 3, 4, 5, 6])
      await addSchedule(seller, { dayOfWeek, startTime: '09:00', endTime: '17:00' });
    await addBlackout(seller, { startDate: '2026-11-26', endDate: '2026-11-27', reason: 'Thanksgiving' });
    await addBlackout(seller, { startDate: '2026-10-01', endDate: '2026-10-02' });

    // Readable by visitors (docs/rules/accounts.md, Roles and permissions).
    const response = await t.app.inject({ method: 'GET', url: `/api/availability/slots/${seller.id}` });
    expect(response.statusCode).toBe(200);
    const slots = response.json() as { datetime: string; label: string }[];
    // 14 days of 16 slots, less 9:00 today (under an hour away) and the two blackout days.
    expect(slots).toHaveLength(14 * 16 - 1 - 2 * 16);
    expect(slots[0]).toEqual({ datetime: '2026-11-23T15:30:00.000Z', label: 'Mon, Nov 23 · 9:30 AM' });
    expect(slots.at(-1)).toEqual({ datetime: '2026-12-06T22:30:00.000Z', label: 'Sun, Dec 6 · 4:30 PM' });
    const times = slots.map((s) => Date.parse(s.datetime));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(new Set(times).size).toBe(times.length);
    expect(times.every((at) => at >= NOW.getTime() + 60 * 60_000)).toBe(true);
    const dates = new Set(slots.map((s) => chicagoDate(s.datetime)));
    expect(dates.has('2026-11-26')).toBe(false);
    expect(dates.has('2026-11-27')).toBe(false);
    expect(dates.size).toBe(12);
  });

  it('is an empty list for a seller with no schedule, or only an inactive one', async () => {
    const seller = await signedInAs(t, 'seller');
    const empty = await t.app.inject({ method: 'GET', url: `/api/availability/slots/${seller.id}` });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual([]);
    await t.database.db
      .insert(availabilitySchedules)
      .values({ userId: seller.id, ...weekday, isActive: false });
    const inactive = await t.app.inject({ method: 'GET', url: `/api/availability/slots/${seller.id}` });
    expect(inactive.json()).toEqual([]);
  });

  it('gives nothing for a schedule whose end is not after its start', async () => {
    const seller = await signedInAs(t, 'seller');
    await addSchedule(seller, { dayOfWeek: 2, startTime: '17:00', endTime: '09:00' });
    const response = await t.app.inject({ method: 'GET', url: `/api/availability/slots/${seller.id}` });
    expect(response.json()).toEqual([]);
  });

  it("answers 404 'Seller not found' for an unknown user and for a user who cannot sell", async () => {
    const unknown = await t.app.inject({ method: 'GET', url: `/api/availability/slots/${UNKNOWN_ID}` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Seller not found');
    // A driver's delivery hours are not published as pickup times.
    const driver = await signedInAs(t, 'driver');
    await addSchedule(driver, weekday);
    const notSeller = await t.app.inject({ method: 'GET', url: `/api/availability/slots/${driver.id}` });
    expect(notSeller.statusCode).toBe(404);
    expect(notSeller.json().message).toBe('Seller not found');
  });

  it('counts the granted seller role, whatever the current role', async () => {
    const user = await createUser(t, { roles: ['buyer', 'seller'], role: 'buyer' });
    const response = await t.app.inject({ method: 'GET', url: `/api/availability/slots/${user.id}` });
    expect(response.statusCode).toBe(200);
  });

  it('answers 400 for a malformed seller id', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/availability/slots/not-a-uuid' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ sellerId: 'Must be a valid id' });
  });
});

describe('API document', () => {
  it('documents every availability call', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json() as { paths: Record<string, Record<string, unknown>> };
    for (const [method, url] of [
      ['get', '/api/availability/schedules'],
      ['post', '/api/availability/schedules'],
      ['delete', '/api/availability/schedules/{id}'],
      ['get', '/api/availability/blackouts'],
      ['post', '/api/availability/blackouts'],
      ['delete', '/api/availability/blackouts/{id}'],
      ['get', '/api/availability/slots/{sellerId}'],
    ] as const) {
      expect(doc.paths[url]?.[method], `${method} ${url}`).toBeDefined();
    }
  });
});
