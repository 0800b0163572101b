/**
 * Dates and times as the marketplace shows them (docs/rules/running.md, Dates and times): always in
 * the marketplace time zone (MARKETPLACE_TZ, default America/Chicago), whatever the zone of the
 * server process or of the viewer's browser, so a pickup chosen as "Mon, Nov 23 · 10:00 AM" reads
 * the same at checkout, on the payment page and in the order. A time that stands alone (a pickup
 * time, a status change) carries the zone's abbreviation ("CST"), so it cannot be misread as the
 * viewer's own clock. Pure: the caller passes the zone. Intl only, no date library; the words
 * and the 12-hour clock are built by hand, since ICU may put U+202F before "AM".
 */

/** The zone when none is configured (config MARKETPLACE_TZ). */
export const DEFAULT_MARKETPLACE_TIME_ZONE = 'America/Chicago';

/** A date of the calendar, without a zone. month is 1 to 12. */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

export interface WallClock extends CalendarDate {
  hour: number;
  minute: number;
  second: number;
}

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
const MONTH_LONG = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

const wallClockFormatters = new Map<string, Intl.DateTimeFormat>();
const zoneNameFormatters = new Map<string, Intl.DateTimeFormat>();

function wallClockFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = wallClockFormatters.get(timeZone);
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
    wallClockFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether Intl knows the zone ("America/Chicago" yes, "Mars/Olympus" no). */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The wall clock of `timeZone` at an instant. */
export function wallClockAt(instantMs: number, timeZone: string): WallClock {
  const parts = wallClockFormatter(timeZone).formatToParts(instantMs);
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

export function weekdayOf(date: CalendarDate): number {
  return new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
}

/** "Mon, Nov 23": the day part of a pickup slot's label. */
export function dayLabel(date: CalendarDate): string {
  return `${WEEKDAY_SHORT[weekdayOf(date)] ?? ''}, ${MONTH_SHORT[date.month - 1] ?? ''} ${date.day}`;
}

/** 540 → "9:00 AM", 0 → "12:00 AM", 720 → "12:00 PM": minutes after midnight on a 12-hour clock. */
export function clockLabel(minuteOfDay: number): string {
  const hours = Math.floor(minuteOfDay / 60);
  const minutes = minuteOfDay % 60;
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${hour12}:${String(minutes).padStart(2, '0')} ${hours < 12 ? 'AM' : 'PM'}`;
}

/** "Mon, Nov 23 · 9:00 AM": a pickup slot's label (docs/rules/catalog-and-orders.md, Addresses, availability and slots). */
export function slotLabelOf(date: CalendarDate, minuteOfDay: number): string {
  return `${dayLabel(date)} · ${clockLabel(minuteOfDay)}`;
}

/** "CST" in a Chicago winter, "CDT" in summer; zones without a common abbreviation read "GMT+9". */
export function zoneAbbreviation(instantMs: number, timeZone: string): string {
  let formatter = zoneNameFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' });
    zoneNameFormatters.set(timeZone, formatter);
  }
  return formatter.formatToParts(instantMs).find((part) => part.type === 'timeZoneName')?.value ?? timeZone;
}

/** "Central Time": the zone's name for a sentence such as "Times are in Central Time (CST)". */
export function zoneName(timeZone: string): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longGeneric' })
    .formatToParts(0)
    .find((part) => part.type === 'timeZoneName')?.value;
  return name ?? timeZone;
}

export type Instant = Date | string | number;

function toMs(instant: Instant | null | undefined): number | null {
  if (instant === null || instant === undefined || instant === '') return null;
  const ms = instant instanceof Date ? instant.getTime() : new Date(instant).getTime();
  return Number.isNaN(ms) ? null : ms;
}

/**
 * "Mon, Nov 23 · 10:00 AM CST": a pickup time, the slot's own label plus the zone, so the time
 * chosen at checkout is the one shown on the payment page and in the order. Null for no time.
 */
export function formatPickupTime(instant: Instant | null | undefined, timeZone: string): string | null {
  const ms = toMs(instant);
  if (ms === null) return null;
  const c = wallClockAt(ms, timeZone);
  return `${slotLabelOf(c, c.hour * 60 + c.minute)} ${zoneAbbreviation(ms, timeZone)}`;
}

/**
 * "Nov 23, 2026 · 10:00 AM CST": when something happened or is expected (an order placed, a
 * status change, an arrival time). Null for no time.
 */
export function formatDateTime(instant: Instant | null | undefined, timeZone: string): string | null {
  const ms = toMs(instant);
  if (ms === null) return null;
  const c = wallClockAt(ms, timeZone);
  return `${MONTH_SHORT[c.month - 1] ?? ''} ${c.day}, ${c.year} · ${clockLabel(c.hour * 60 + c.minute)} ${zoneAbbreviation(ms, timeZone)}`;
}

/** "Nov 23, 2026": the marketplace's date of an instant. Null for no time. */
export function formatDate(instant: Instant | null | undefined, timeZone: string): string | null {
  const ms = toMs(instant);
  if (ms === null) return null;
  const c = wallClockAt(ms, timeZone);
  return `${MONTH_SHORT[c.month - 1] ?? ''} ${c.day}, ${c.year}`;
}

/** "November 2026" (a member since line). Null for no time. */
export function formatMonthYear(instant: Instant | null | undefined, timeZone: string): string | null {
  const ms = toMs(instant);
  if (ms === null) return null;
  const c = wallClockAt(ms, timeZone);
  return `${MONTH_LONG[c.month - 1] ?? ''} ${c.year}`;
}

/** The marketplace's date of an instant as YYYY-MM-DD (blackout dates are days of this calendar). */
export function isoDateIn(instant: Instant, timeZone: string): string {
  const ms = toMs(instant) ?? 0;
  const c = wallClockAt(ms, timeZone);
  return `${String(c.year).padStart(4, '0')}-${String(c.month).padStart(2, '0')}-${String(c.day).padStart(2, '0')}`;
}
