import { isoDateIn } from '@domain/marketplace-time';
import type { Role } from '@domain/roles';
import { marketplaceTimeZone } from '../../lib/format';

export interface AvailabilityTexts {
  subtitle: string;
  schedule: string;
  blackouts: string;
}

/**
 * The availability page's texts (docs/rules/screens-buyer.md, Account pages): the subtitle mentions
 * pickups for sellers and deliveries otherwise (the current role decides); the card descriptions
 * follow it.
 */
export function availabilityTexts(role: Role): AvailabilityTexts {
  return role === 'seller'
    ? {
        subtitle: 'Set your weekly hours and blackout dates for customer pickups',
        schedule: 'The hours each week when buyers can pick up orders from you.',
        blackouts: 'Days when no pickups can be booked, even if your weekly hours include them.',
      }
    : {
        subtitle: 'Set your weekly hours and blackout dates for deliveries',
        schedule: 'The hours each week when you are available for deliveries.',
        blackouts: 'Days when you are not available for deliveries.',
      };
}

/** '09:00' -> '9:00 AM', '17:30' -> '5:30 PM' (the pickup slot labels use the same clock). */
export function formatTime(time: string): string {
  const [hours, minutes] = time.split(':').map(Number);
  if (hours === undefined || minutes === undefined || Number.isNaN(hours) || Number.isNaN(minutes)) {
    return time;
  }
  const suffix = hours < 12 ? 'AM' : 'PM';
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${hour12}:${String(minutes).padStart(2, '0')} ${suffix}`;
}

const dateFormat = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/** '2026-11-23' -> 'Mon, Nov 23, 2026'. A calendar date, so it is read and shown in UTC, never shifted. */
export function formatDate(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  if (!year || !month || !day) return date;
  return dateFormat.format(new Date(Date.UTC(year, month - 1, day)));
}

/** One day, or "first – last" (both ends included). */
export function formatDateRange(startDate: string, endDate: string): string {
  return startDate === endDate ? formatDate(startDate) : `${formatDate(startDate)} – ${formatDate(endDate)}`;
}

/**
 * Today in the marketplace's calendar as YYYY-MM-DD (the value a date input takes): blackout dates
 * are days of the marketplace time zone, whatever the browser's (docs/rules/running.md, Dates and
 * times).
 */
export function todayLocalDate(now: Date = new Date()): string {
  return isoDateIn(now, marketplaceTimeZone());
}
