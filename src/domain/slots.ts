import { TIME_PATTERN, type Slot } from './availability';
import { slotLabelOf, wallClockAt, weekdayOf, type CalendarDate } from './marketplace-time';

/**
 * Pickup slots (docs/rules/catalog-and-orders.md, Addresses, availability and slots): the next 14 days of the
 * seller's active weekly schedule in 30-minute steps, at least one hour from now, minus blackout
 * dates, in the marketplace time zone. Pure: the caller passes the clock and the zone. Time-zone
 * math uses Intl only (no date library).
 */

export interface SlotSchedule {
  dayOfWeek: number;
  startTime: string;
  endTime: string;
  /** Absent means active. */
  isActive?: boolean;
}

export interface SlotBlackout {
  /** YYYY-MM-DD, a local date of the marketplace time zone; both ends included. */
  startDate: string;
  endDate: string;
}

export interface PickupSlotOptions {
  schedules: readonly SlotSchedule[];
  blackouts: readonly SlotBlackout[];
  now: Date;
  /** An IANA zone such as America/Chicago (config MARKETPLACE_TZ). */
  timeZone: string;
  /** Calendar days to cover, today included. */
  days?: number;
  stepMinutes?: number;
  /** A slot starts at least this long after now. */
  leadMinutes?: number;
}

export const PICKUP_DAYS = 14;
export const PICKUP_STEP_MINUTES = 30;
export const PICKUP_LEAD_MINUTES = 60;

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** How far the zone's wall clock is ahead of UTC at an instant, in ms (Chicago in winter: -6 h). */
function offsetAt(instantMs: number, timeZone: string): number {
  const c = wallClockAt(instantMs, timeZone);
  const wholeSecond = Math.floor(instantMs / 1000) * 1000;
  return Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second) - wholeSecond;
}

export function addDays(date: CalendarDate, days: number): CalendarDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

export function isoDate(date: CalendarDate): string {
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return `${pad(date.year, 4)}-${pad(date.month, 2)}-${pad(date.day, 2)}`;
}

/** Minutes after midnight of an 'HH:mm' time, or undefined when it is not one. */
export function minutesOf(time: string): number | undefined {
  if (!TIME_PATTERN.test(time)) return undefined;
  const [hours, minutes] = time.split(':').map(Number);
  if (hours === undefined || minutes === undefined) return undefined;
  return hours * 60 + minutes;
}

/**
 * Turns wall times of one zone into instants. The zone's offset is probed a day before and a day
 * after the wall time; the probes are cached by the hour, since the slots of a day share them.
 */
function createWallTimeConverter(timeZone: string) {
  const probes = new Map<number, number>();
  const probeOffset = (ms: number) => {
    // A probe a day away only has to fall on the right side of a nearby change, so the hour is enough.
    const hour = Math.floor(ms / HOUR_MS);
    let offset = probes.get(hour);
    if (offset === undefined) {
      offset = offsetAt(hour * HOUR_MS, timeZone);
      probes.set(hour, offset);
    }
    return offset;
  };
  const shows = (instantMs: number, date: CalendarDate, minuteOfDay: number) => {
    const c = wallClockAt(instantMs, timeZone);
    return (
      c.year === date.year &&
      c.month === date.month &&
      c.day === date.day &&
      c.hour * 60 + c.minute === minuteOfDay &&
      c.second === 0
    );
  };
  /**
   * The instant at which the zone's clocks show `minuteOfDay` on `date`; undefined when that wall
   * time does not exist (skipped by a spring-forward change); the first of the two when a
   * fall-back change shows it twice.
   */
  return (date: CalendarDate, minuteOfDay: number): number | undefined => {
    const asIfUtc = Date.UTC(date.year, date.month - 1, date.day, 0, minuteOfDay);
    const before = probeOffset(asIfUtc - DAY_MS);
    const after = probeOffset(asIfUtc + DAY_MS);
    // The same offset a day either side: no change in between (real zones change at most twice a
    // year, never twice within two days), so the wall time exists exactly once.
    if (before === after) return asIfUtc - before;
    const candidates = [asIfUtc - before, asIfUtc - after]
      .filter((instant) => shows(instant, date, minuteOfDay))
      .sort((a, b) => a - b);
    return candidates[0];
  };
}

/** The instant at which clocks in `timeZone` show `minuteOfDay` on `date` (see above). */
export function wallTimeToInstant(
  date: CalendarDate,
  minuteOfDay: number,
  timeZone: string,
): number | undefined {
  return createWallTimeConverter(timeZone)(date, minuteOfDay);
}

/**
 * "Mon, Nov 23 · 9:00 AM" (docs/rules/catalog-and-orders.md, Addresses, availability and slots), by the one
 * formatter of marketplace times (domain/marketplace-time.ts).
 */
export function slotLabel(date: CalendarDate, minuteOfDay: number): string {
  return slotLabelOf(date, minuteOfDay);
}

export function generatePickupSlots({
  schedules,
  blackouts,
  now,
  timeZone,
  days = PICKUP_DAYS,
  stepMinutes = PICKUP_STEP_MINUTES,
  leadMinutes = PICKUP_LEAD_MINUTES,
}: PickupSlotOptions): Slot[] {
  if (!Number.isInteger(stepMinutes) || stepMinutes < 1)
    throw new RangeError('stepMinutes must be a positive integer');
  const earliest = now.getTime() + leadMinutes * MINUTE_MS;
  const toInstant = createWallTimeConverter(timeZone);
  const today = wallClockAt(now.getTime(), timeZone);

  const windows = schedules.flatMap((schedule) => {
    const start = minutesOf(schedule.startTime);
    const end = minutesOf(schedule.endTime);
    // Times are not checked for order: an end not after the start gives nothing
    // (docs/rules/catalog-and-orders.md, Addresses, availability and slots).
    if (schedule.isActive === false || start === undefined || end === undefined || end <= start) return [];
    return [{ dayOfWeek: schedule.dayOfWeek, start, end }];
  });

  const slots = new Map<number, Slot>();
  for (let dayIndex = 0; dayIndex < days; dayIndex += 1) {
    const date = addDays(today, dayIndex);
    const iso = isoDate(date);
    if (blackouts.some((b) => b.startDate <= iso && iso <= b.endDate)) continue;
    const weekday = weekdayOf(date);
    // Overlapping schedules name the same wall time twice; a set keeps it once.
    const minutes = new Set<number>();
    for (const window of windows) {
      if (window.dayOfWeek !== weekday) continue;
      for (let minute = window.start; minute < window.end; minute += stepMinutes) minutes.add(minute);
    }
    for (const minute of minutes) {
      const instant = toInstant(date, minute);
      if (instant === undefined || instant < earliest || slots.has(instant)) continue;
      slots.set(instant, { datetime: new Date(instant).toISOString(), label: slotLabel(date, minute) });
    }
  }
  return [...slots.entries()].sort(([a], [b]) => a - b).map(([, slot]) => slot);
}

/**
 * The first moment at which the clock alone changes the slots `generatePickupSlots` gave at `now`
 * (ms since the epoch): the first slot coming within the lead time (from then on it is not offered),
 * or the next local midnight (a new day enters the window). Nothing else in the answer moves with
 * the clock: until then, the slots are the same.
 */
export function pickupSlotsChangeAt(
  slots: readonly Slot[],
  now: Date,
  timeZone: string,
  leadMinutes = PICKUP_LEAD_MINUTES,
): number {
  const today = wallClockAt(now.getTime(), timeZone);
  // A midnight skipped by a clock change (a few zones, once a year): a minute from now.
  const midnight = wallTimeToInstant(addDays(today, 1), 0, timeZone) ?? now.getTime() + MINUTE_MS;
  const first = slots[0];
  // The first slot is offered while it starts at least the lead time from now.
  const firstGoes = first ? Date.parse(first.datetime) - leadMinutes * MINUTE_MS + 1 : Infinity;
  return Math.min(midnight, firstGoes);
}
