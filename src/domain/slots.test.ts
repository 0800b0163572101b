import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCHEDULE } from './availability';
import { generatePickupSlots, wallTimeToInstant, type SlotBlackout, type SlotSchedule } from './slots';

const CHICAGO = 'America/Chicago';
const everyDay = (startTime: string, endTime: string): SlotSchedule[] =>
  [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, startTime, endTime }));

function slotsAt(now: string, schedules: SlotSchedule[], blackouts: SlotBlackout[] = [], timeZone = CHICAGO) {
  return generatePickupSlots({ schedules, blackouts, now: new Date(now), timeZone });
}

describe('generatePickupSlots: worked examples in America/Chicago', () => {
  // 2026-11-23 is a Monday; 14:10Z is 8:10 AM CST.
  const mondayMorning = '2026-11-23T14:10:00Z';

  it('offers the default Monday 09:00-17:00 in 30-minute steps, from one hour after now, for 14 days', () => {
    const slots = slotsAt(mondayMorning, [DEFAULT_SCHEDULE]);
    // Today from 9:30 (9:00 is less than an hour away) to 4:30 PM, then all of next Monday.
    // The Monday after (Dec 7) is the 15th day and not offered.
    expect(slots).toHaveLength(15 + 16);
    expect(slots[0]).toEqual({ datetime: '2026-11-23T15:30:00.000Z', label: 'Mon, Nov 23 · 9:30 AM' });
    expect(slots[14]).toEqual({ datetime: '2026-11-23T22:30:00.000Z', label: 'Mon, Nov 23 · 4:30 PM' });
    expect(slots[15]).toEqual({ datetime: '2026-11-30T15:00:00.000Z', label: 'Mon, Nov 30 · 9:00 AM' });
    expect(slots.at(-1)).toEqual({ datetime: '2026-11-30T22:30:00.000Z', label: 'Mon, Nov 30 · 4:30 PM' });
  });

  it('keeps a slot exactly one hour away and drops one a minute closer', () => {
    const exactly = slotsAt('2026-11-23T14:00:00Z', [DEFAULT_SCHEDULE]);
    expect(exactly[0]?.label).toBe('Mon, Nov 23 · 9:00 AM');
    const closer = slotsAt('2026-11-23T14:00:00.001Z', [DEFAULT_SCHEDULE]);
    expect(closer[0]?.label).toBe('Mon, Nov 23 · 9:30 AM');
  });

  it('uses the marketplace day, not the UTC day', () => {
    // 03:00Z on Tuesday is still Monday 9:00 PM in Chicago.
    const slots = slotsAt('2026-11-24T03:00:00Z', [{ dayOfWeek: 1, startTime: '21:30', endTime: '23:00' }]);
    expect(slots.slice(0, 3).map((s) => s.label)).toEqual([
      'Mon, Nov 23 · 10:00 PM',
      'Mon, Nov 23 · 10:30 PM',
      'Mon, Nov 30 · 9:30 PM',
    ]);
  });

  it('labels noon and midnight as 12 PM and 12 AM', () => {
    const slots = slotsAt('2026-11-20T12:00:00Z', [
      { dayOfWeek: 0, startTime: '00:00', endTime: '00:30' },
      { dayOfWeek: 0, startTime: '12:00', endTime: '12:30' },
    ]);
    expect(slots.slice(0, 2).map((s) => s.label)).toEqual([
      'Sun, Nov 22 · 12:00 AM',
      'Sun, Nov 22 · 12:00 PM',
    ]);
  });

  it('steps from the start time and stops before the end time', () => {
    const slots = slotsAt(mondayMorning, [{ dayOfWeek: 2, startTime: '09:15', endTime: '10:15' }]);
    expect(slots.slice(0, 3).map((s) => s.label)).toEqual([
      'Tue, Nov 24 · 9:15 AM',
      'Tue, Nov 24 · 9:45 AM',
      'Tue, Dec 1 · 9:15 AM',
    ]);
  });

  it('removes whole blackout days, both ends included', () => {
    const slots = slotsAt(mondayMorning, everyDay('09:00', '10:00'), [
      { startDate: '2026-11-25', endDate: '2026-11-27' },
      { startDate: '2026-12-01', endDate: '2026-12-01' },
    ]);
    const days = new Set(slots.map((s) => s.label.split(' · ')[0]));
    expect([...days]).toEqual([
      'Mon, Nov 23',
      'Tue, Nov 24',
      'Sat, Nov 28',
      'Sun, Nov 29',
      'Mon, Nov 30',
      'Wed, Dec 2',
      'Thu, Dec 3',
      'Fri, Dec 4',
      'Sat, Dec 5',
      'Sun, Dec 6',
    ]);
  });

  it('gives nothing for an end not after the start, an inactive schedule or an unreadable time', () => {
    expect(slotsAt(mondayMorning, [{ dayOfWeek: 1, startTime: '17:00', endTime: '09:00' }])).toEqual([]);
    expect(slotsAt(mondayMorning, [{ dayOfWeek: 1, startTime: '12:00', endTime: '12:00' }])).toEqual([]);
    expect(slotsAt(mondayMorning, [{ ...DEFAULT_SCHEDULE, isActive: false }])).toEqual([]);
    expect(slotsAt(mondayMorning, [{ dayOfWeek: 1, startTime: '9am', endTime: '17:00' }])).toEqual([]);
    expect(slotsAt(mondayMorning, [])).toEqual([]);
  });

  it('offers a wall time once when schedules overlap', () => {
    const slots = slotsAt(mondayMorning, [
      { dayOfWeek: 2, startTime: '09:00', endTime: '11:00' },
      { dayOfWeek: 2, startTime: '10:00', endTime: '12:00' },
      { dayOfWeek: 2, startTime: '10:00', endTime: '12:00' },
    ]);
    const tuesday = slots.filter((s) => s.label.startsWith('Tue, Nov 24'));
    expect(tuesday.map((s) => s.label.split(' · ')[1])).toEqual([
      '9:00 AM',
      '9:30 AM',
      '10:00 AM',
      '10:30 AM',
      '11:00 AM',
      '11:30 AM',
    ]);
  });

  it('skips the wall times that do not exist when clocks spring forward (2026-03-08)', () => {
    const slots = slotsAt('2026-03-07T12:00:00Z', [{ dayOfWeek: 0, startTime: '01:00', endTime: '04:00' }]);
    expect(slots.slice(0, 4)).toEqual([
      { datetime: '2026-03-08T07:00:00.000Z', label: 'Sun, Mar 8 · 1:00 AM' }, // CST, UTC-6
      { datetime: '2026-03-08T07:30:00.000Z', label: 'Sun, Mar 8 · 1:30 AM' },
      // 2:00 and 2:30 AM do not exist that night.
      { datetime: '2026-03-08T08:00:00.000Z', label: 'Sun, Mar 8 · 3:00 AM' }, // CDT, UTC-5
      { datetime: '2026-03-08T08:30:00.000Z', label: 'Sun, Mar 8 · 3:30 AM' },
    ]);
    // A week later the night is whole again, on daylight time.
    expect(slots.slice(4, 6).map((s) => s.datetime)).toEqual([
      '2026-03-15T06:00:00.000Z',
      '2026-03-15T06:30:00.000Z',
    ]);
  });

  it('takes the first of the two 1 AM hours when clocks fall back (2026-11-01)', () => {
    const slots = slotsAt('2026-10-31T12:00:00Z', [{ dayOfWeek: 0, startTime: '00:30', endTime: '03:00' }]);
    expect(slots.slice(0, 5)).toEqual([
      { datetime: '2026-11-01T05:30:00.000Z', label: 'Sun, Nov 1 · 12:30 AM' }, // CDT, UTC-5
      { datetime: '2026-11-01T06:00:00.000Z', label: 'Sun, Nov 1 · 1:00 AM' }, // first 1:00, still CDT
      { datetime: '2026-11-01T06:30:00.000Z', label: 'Sun, Nov 1 · 1:30 AM' },
      // 07:00Z and 07:30Z show 1:00 and 1:30 AM again (CST) and are not offered twice.
      { datetime: '2026-11-01T08:00:00.000Z', label: 'Sun, Nov 1 · 2:00 AM' }, // CST, UTC-6
      { datetime: '2026-11-01T08:30:00.000Z', label: 'Sun, Nov 1 · 2:30 AM' },
    ]);
  });

  it('follows the marketplace zone it is given', () => {
    const slots = slotsAt('2026-11-23T00:00:00Z', [DEFAULT_SCHEDULE], [], 'Asia/Kolkata');
    expect(slots[0]).toEqual({ datetime: '2026-11-23T03:30:00.000Z', label: 'Mon, Nov 23 · 9:00 AM' });
  });
});

describe('wallTimeToInstant', () => {
  it('converts across daylight-saving changes in both directions', () => {
    const spring = { year: 2026, month: 3, day: 8 };
    expect(wallTimeToInstant(spring, 90, CHICAGO)).toBe(Date.parse('2026-03-08T07:30:00Z'));
    expect(wallTimeToInstant(spring, 120, CHICAGO)).toBeUndefined();
    expect(wallTimeToInstant(spring, 179, CHICAGO)).toBeUndefined();
    expect(wallTimeToInstant(spring, 180, CHICAGO)).toBe(Date.parse('2026-03-08T08:00:00Z'));
    const fall = { year: 2026, month: 11, day: 1 };
    expect(wallTimeToInstant(fall, 59, CHICAGO)).toBe(Date.parse('2026-11-01T05:59:00Z'));
    expect(wallTimeToInstant(fall, 60, CHICAGO)).toBe(Date.parse('2026-11-01T06:00:00Z'));
    expect(wallTimeToInstant(fall, 119, CHICAGO)).toBe(Date.parse('2026-11-01T06:59:00Z'));
    expect(wallTimeToInstant(fall, 120, CHICAGO)).toBe(Date.parse('2026-11-01T08:00:00Z'));
  });

  it('handles a zone whose clocks move by half an hour (Lord Howe Island)', () => {
    // 2026-10-04 02:00 becomes 02:30 (+10:30 to +11:00).
    const day = { year: 2026, month: 10, day: 4 };
    expect(wallTimeToInstant(day, 2 * 60, 'Australia/Lord_Howe')).toBeUndefined();
    expect(wallTimeToInstant(day, 2 * 60 + 30, 'Australia/Lord_Howe')).toBe(
      Date.parse('2026-10-03T15:30:00Z'),
    );
  });
});

// ---- Properties -------------------------------------------------------------------------------

const ZONES = [
  'America/Chicago',
  'America/New_York',
  'America/Los_Angeles',
  'America/St_Johns',
  'Europe/London',
  'Australia/Lord_Howe',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'UTC',
] as const;
const LABEL =
  /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat), (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2} · \d{1,2}:\d{2} (AM|PM)$/;
const DAY_MS = 86_400_000;

const pad = (n: number) => String(n).padStart(2, '0');
const hhmm = (minutes: number) => `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;

const viewFormatters = new Map<string, Record<'parts' | 'date' | 'time', Intl.DateTimeFormat>>();

function viewFormattersFor(timeZone: string) {
  let formatters = viewFormatters.get(timeZone);
  if (!formatters) {
    formatters = {
      parts: new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        weekday: 'short',
      }),
      date: new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', month: 'short', day: 'numeric' }),
      time: new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit', hour12: true }),
    };
    viewFormatters.set(timeZone, formatters);
  }
  return formatters;
}

/** What the clocks of a zone show at an instant, read with Intl independently of slots.ts. */
function localView(instantMs: number, timeZone: string) {
  const formatters = viewFormattersFor(timeZone);
  const parts = formatters.parts.formatToParts(instantMs);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const date = `${get('year')}-${get('month')}-${get('day')}`;
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(get('weekday'));
  const minuteOfDay = Number(get('hour')) * 60 + Number(get('minute'));
  const second = Number(get('second'));
  return { date, weekday, minuteOfDay, second };
}

/** The label as Intl writes it; ICU may put a narrow no-break space before AM/PM. */
function intlLabel(instantMs: number, timeZone: string): string {
  const formatters = viewFormattersFor(timeZone);
  return `${formatters.date.format(instantMs)} · ${formatters.time.format(instantMs).replace(/\s/g, ' ')}`;
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

function isoPlusDays(iso: string, days: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

const nowArb = fc.date({
  min: new Date('2000-01-01T00:00:00Z'),
  max: new Date('2060-12-31T00:00:00Z'),
  noInvalidDate: true,
});

function scheduleArb(minuteStep: number) {
  const time = fc.integer({ min: 0, max: (24 * 60) / minuteStep - 1 }).map((i) => hhmm(i * minuteStep));
  return fc.record({
    dayOfWeek: fc.integer({ min: 0, max: 6 }),
    startTime: time,
    endTime: time,
    // Mostly active: three in four.
    isActive: fc.integer({ min: 0, max: 3 }).map((n) => n > 0),
  });
}

/** Blackouts around now: from a few days before to past the 14-day window, a few days long. */
function blackoutsArb(now: Date) {
  const base = now.toISOString().slice(0, 10);
  return fc.array(
    fc
      .record({ from: fc.integer({ min: -3, max: 17 }), length: fc.integer({ min: 0, max: 4 }) })
      .map(({ from, length }) => ({
        startDate: isoPlusDays(base, from),
        endDate: isoPlusDays(base, from + length),
      })),
    { maxLength: 4 },
  );
}

const inputArb = (minuteStep: number) =>
  nowArb.chain((now) =>
    fc.record({
      now: fc.constant(now),
      timeZone: fc.constantFrom(...ZONES),
      schedules: fc.array(scheduleArb(minuteStep), { maxLength: 8 }),
      blackouts: blackoutsArb(now),
    }),
  );

/** Instants at which clocks change in 2026, to aim `now` at the days that matter most. */
const CHANGES: readonly [string, string][] = [
  ['America/Chicago', '2026-03-08T08:00:00Z'],
  ['America/Chicago', '2026-11-01T07:00:00Z'],
  ['America/St_Johns', '2026-03-08T05:30:00Z'],
  ['America/St_Johns', '2026-11-01T04:30:00Z'],
  ['Europe/London', '2026-03-29T01:00:00Z'],
  ['Europe/London', '2026-10-25T01:00:00Z'],
  ['Australia/Lord_Howe', '2026-04-04T15:00:00Z'],
  ['Australia/Lord_Howe', '2026-10-03T15:30:00Z'],
  ['Pacific/Chatham', '2026-04-04T14:00:00Z'],
  ['Pacific/Chatham', '2026-09-26T14:00:00Z'],
];

/** A `now` up to 14 days before a change, and night hours on every day so the change is scheduled. */
const aroundChangeArb = fc
  .record({
    change: fc.constantFrom(...CHANGES),
    before: fc.integer({ min: 0, max: 14 * DAY_MS }),
    night: fc.record({ start: fc.integer({ min: 0, max: 12 }), end: fc.integer({ min: 8, max: 20 }) }),
    schedules: fc.array(scheduleArb(15), { maxLength: 4 }),
  })
  .chain(({ change: [timeZone, at], before, night, schedules }) => {
    const now = new Date(Date.parse(at) - before);
    const nights = [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({
      dayOfWeek,
      startTime: hhmm(night.start * 15),
      endTime: hhmm(night.end * 15),
      isActive: true,
    }));
    return fc.record({
      now: fc.constant(now),
      timeZone: fc.constant(timeZone),
      schedules: fc.constant([...nights, ...schedules]),
      blackouts: blackoutsArb(now),
    });
  });

describe('generatePickupSlots: properties', () => {
  it('never offers a blackout day, a time under an hour away or outside a schedule; sorted, unique, 14 days', () => {
    fc.assert(
      fc.property(inputArb(1), ({ now, timeZone, schedules, blackouts }) => {
        const slots = generatePickupSlots({ schedules, blackouts, now, timeZone });
        const today = localView(now.getTime(), timeZone).date;
        let previous = -Infinity;
        for (const slot of slots) {
          const at = Date.parse(slot.datetime);
          expect(new Date(at).toISOString()).toBe(slot.datetime);
          expect(at).toBeGreaterThan(previous);
          previous = at;
          expect(at).toBeGreaterThanOrEqual(now.getTime() + 60 * 60_000);
          const local = localView(at, timeZone);
          expect(blackouts.some((b) => b.startDate <= local.date && local.date <= b.endDate)).toBe(false);
          const day = daysBetween(today, local.date);
          expect(day).toBeGreaterThanOrEqual(0);
          expect(day).toBeLessThan(14);
          expect(local.second).toBe(0);
          const fits = schedules.some((s) => {
            const start = Number(s.startTime.slice(0, 2)) * 60 + Number(s.startTime.slice(3));
            const end = Number(s.endTime.slice(0, 2)) * 60 + Number(s.endTime.slice(3));
            const m = local.minuteOfDay;
            return (
              s.isActive && s.dayOfWeek === local.weekday && start <= m && m < end && (m - start) % 30 === 0
            );
          });
          expect(fits).toBe(true);
          expect(slot.label).toMatch(LABEL);
          expect(slot.label).toBe(intlLabel(at, timeZone));
        }
      }),
      { numRuns: 300 },
    );
  }, 30_000);

  it('offers exactly the wall times a minute-by-minute walk of the clock finds', () => {
    // The oracle walks real instants on a 15-minute grid (every zone here is a whole quarter hour
    // from UTC) and keeps the first instant that shows each scheduled wall time.
    fc.assert(
      fc.property(fc.oneof(inputArb(15), aroundChangeArb), ({ now, timeZone, schedules, blackouts }) => {
        const slots = generatePickupSlots({ schedules, blackouts, now, timeZone });
        const today = localView(now.getTime(), timeZone).date;
        const quarter = 15 * 60_000;
        const expected: string[] = [];
        const seen = new Set<string>();
        for (
          let at = Math.ceil((now.getTime() - DAY_MS) / quarter) * quarter;
          at < now.getTime() + 16 * DAY_MS;
          at += quarter
        ) {
          const local = localView(at, timeZone);
          const key = `${local.date} ${local.minuteOfDay}`;
          if (seen.has(key)) continue;
          seen.add(key);
          const day = daysBetween(today, local.date);
          if (day < 0 || day >= 14 || at < now.getTime() + 60 * 60_000) continue;
          if (blackouts.some((b) => b.startDate <= local.date && local.date <= b.endDate)) continue;
          const fits = schedules.some((s) => {
            const start = Number(s.startTime.slice(0, 2)) * 60 + Number(s.startTime.slice(3));
            const end = Number(s.endTime.slice(0, 2)) * 60 + Number(s.endTime.slice(3));
            const m = local.minuteOfDay;
            return (
              s.isActive && s.dayOfWeek === local.weekday && start <= m && m < end && (m - start) % 30 === 0
            );
          });
          if (fits) expected.push(new Date(at).toISOString());
        }
        expect(slots.map((s) => s.datetime)).toEqual(expected);
      }),
      { numRuns: 120 },
    );
  }, 30_000);
});
