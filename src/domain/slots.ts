import { TIME_PATTERN, type Slot } from './availability';

/**
 * Pickup slots (DECISIONS §10): the next 14 days of the seller's active weekly schedule in
 * 30-minute steps, at least one hour from now, minus blackout dates, in the marketplace time zone.
 * Pure: the caller passes the clock and the zone. Time-zone math uses Intl only (no date library).
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

const WEEKDAY_SHORT = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTH_SHORT = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
] as const;

/** A date of the calendar, without a zone. month is 1 to 12. */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

interface WallClock extends CalendarDate {
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      // h23, not hour12: false, which some engines print as "24" at midnight.
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall clock of `timeZone` at an instant. */
export function wallClockAt(instantMs: number, timeZone: string): WallClock {
  const parts = formatterFor(timeZone).formatToParts(instantMs);
  const read = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((part) => part.type === type)?.value);
  return {
    year: read('year'),
    month: read('month'),
    day: read('day'),
    hour: read('hour'),
    minute: read('minute'),
    second: read('second'),
  };
}

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

export function weekdayOf(date: CalendarDate): number {
  return new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
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

/** "Mon, Nov 23 · 9:00 AM" (DECISIONS §10). Built by hand: ICU's "9:00 AM" may hold U+202F. */
export function slotLabel(date: CalendarDate, minuteOfDay: number): string {
  const hours = Math.floor(minuteOfDay / 60);
  const minutes = minuteOfDay % 60;
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  const period = hours < 12 ? 'AM' : 'PM';
  const weekday = WEEKDAY_SHORT[weekdayOf(date)] ?? '';
  const month = MONTH_SHORT[date.month - 1] ?? '';
  return `${weekday}, ${month} ${date.day} · ${hour12}:${String(minutes).padStart(2, '0')} ${period}`;
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
    // "Times are not validated for order" (spec seller §5): an end not after the start gives nothing.
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
