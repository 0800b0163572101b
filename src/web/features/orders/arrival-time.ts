import { wallClockAt } from '@domain/marketplace-time';
import { wallTimeToInstant } from '@domain/slots';

/**
 * The arrival time editor's value (docs/rules/deliveries.md, Deliveries; docs/rules/running.md, Dates and
 * times): a `datetime-local` input shows the wall clock of the marketplace time zone, whatever the phone's
 * own zone, and the server gets the instant as ISO.
 */

const pad = (n: number) => String(n).padStart(2, '0');
const INPUT_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** "2026-11-23T15:30": the wall clock of `timeZone` at an instant, minutes only. */
export function arrivalInputOf(instant: Date | string, timeZone: string): string {
  const c = wallClockAt(new Date(instant).getTime(), timeZone);
  return `${c.year}-${pad(c.month)}-${pad(c.day)}T${pad(c.hour)}:${pad(c.minute)}`;
}

/**
 * The instant an input value means in `timeZone`, as ISO; null when the value is empty, malformed
 * or names a wall time the zone skips (the spring-forward hour).
 */
export function instantOfArrivalInput(value: string, timeZone: string): string | null {
  const match = INPUT_PATTERN.exec(value.trim());
  if (!match) return null;
  const [, year, month, day, hour, minute] = match.map(Number);
  if (
    year === undefined ||
    month === undefined ||
    day === undefined ||
    hour === undefined ||
    minute === undefined
  )
    return null;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return null;
  const ms = wallTimeToInstant({ year, month, day }, hour * 60 + minute, timeZone);
  if (ms === undefined) return null;
  // 31 February rolls over into March: only a wall time that reads back the same is a real one.
  if (arrivalInputOf(new Date(ms), timeZone) !== value.trim()) return null;
  return new Date(ms).toISOString();
}

/**
 * What the editor starts with: the time already set, else nothing. A time in the field next to
 * "Not set yet" would read as one already set and told to the buyer.
 */
export function initialArrivalInput(current: string | null, timeZone: string): string {
  return current ? arrivalInputOf(current, timeZone) : '';
}
