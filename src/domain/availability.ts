import { z } from 'zod';
import { idSchema } from './users';

/**
 * Days are numbered 0 (Sunday) to 6 (Saturday)
 * (docs/rules/catalog-and-orders.md, Addresses, availability and slots).
 */
export const DAY_NAMES = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;

/**
 * The schedule form starts at Monday 09:00 to 17:00
 * (docs/rules/catalog-and-orders.md, Addresses, availability and slots).
 */
export const DEFAULT_SCHEDULE = { dayOfWeek: 1, startTime: '09:00', endTime: '17:00' } as const;

/** The same pattern as the check constraints on availability_schedules. */
export const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * A real calendar date written YYYY-MM-DD, years 1000 to 9999 (what the database's date column and
 * the calendar pickers deal in): 2026-02-30 is refused, 2028-02-29 is not. One regular expression
 * (30-day and 31-day months, February 29 of the Gregorian leap years) so that the request schemas'
 * JSON Schema carries the rule (docs/ARCHITECTURE.md, Requests and errors).
 */
const CALENDAR_DATE_SOURCE =
  '[1-9]\\d{3}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))' +
  '|(?:[1-9]\\d(?:0[48]|[2468][048]|[13579][26])|(?:[2468][048]|[13579][26])00)-02-29';
export const CALENDAR_DATE_PATTERN = new RegExp(`^(?:${CALENDAR_DATE_SOURCE})$`);
/** A calendar date, or nothing (an empty filter). */
export const OPTIONAL_CALENDAR_DATE_PATTERN = new RegExp(`^(?:${CALENDAR_DATE_SOURCE})?$`);

export function isCalendarDate(value: string): boolean {
  return CALENDAR_DATE_PATTERN.test(value);
}

const DAY_MESSAGE = 'Day must be a whole number from 0 (Sunday) to 6 (Saturday)';
const dayOfWeekSchema = z
  .number({ error: DAY_MESSAGE })
  .int(DAY_MESSAGE)
  .min(0, DAY_MESSAGE)
  .max(6, DAY_MESSAGE);

const timeSchema = (label: string) => {
  const message = `${label} must be a time like 09:00 (HH:mm, 24-hour)`;
  return z.string({ error: message }).regex(TIME_PATTERN, message);
};

const dateSchema = (label: string) => {
  const message = `${label} must be a date like 2026-11-23 (YYYY-MM-DD)`;
  return z.string({ error: message }).regex(CALENDAR_DATE_PATTERN, message);
};

/**
 * POST /api/availability/schedules. Unknown keys are refused (docs/rules/accounts.md, Roles and permissions;
 * mass assignment). Times are not checked for order (docs/rules/catalog-and-orders.md, Addresses,
 * availability and slots), so 17:00 to 09:00 is accepted; such a schedule simply yields no slots
 * (domain/slots.ts).
 */
export const scheduleBodySchema = z.strictObject({
  dayOfWeek: dayOfWeekSchema,
  startTime: timeSchema('Start time'),
  endTime: timeSchema('End time'),
});
export type ScheduleBody = z.infer<typeof scheduleBodySchema>;

/**
 * A weekly schedule holds each day and time range once; an overlapping range is another entry
 * (docs/rules/catalog-and-orders.md, Addresses, availability and slots; docs/decisions/0006-pickup-slots.md).
 */
export function duplicateScheduleMessage(schedule: ScheduleBody): string {
  const day = DAY_NAMES[schedule.dayOfWeek] ?? `Day ${schedule.dayOfWeek}`;
  return `${day} ${schedule.startTime} to ${schedule.endTime} is already in your weekly schedule.`;
}

export const scheduleSchema = z.object({
  id: z.string(),
  userId: z.string(),
  dayOfWeek: z.number().int(),
  startTime: z.string(),
  endTime: z.string(),
  isActive: z.boolean(),
});
export type Schedule = z.infer<typeof scheduleSchema>;

export const END_BEFORE_START_MESSAGE = 'End date must be on or after the start date';
export const REASON_MAX_LENGTH = 200;

/** POST /api/availability/blackouts: a range of whole days, both ends included; reason optional. */
export const blackoutBodySchema = z
  .strictObject({
    startDate: dateSchema('Start date'),
    endDate: dateSchema('End date'),
    reason: z
      .string({ error: 'Reason must be text' })
      .trim()
      .max(REASON_MAX_LENGTH, `Reason must be at most ${REASON_MAX_LENGTH} characters`)
      .nullish()
      // The form sends '' for "no reason"; it is stored as null.
      .transform((reason) => (reason ? reason : null)),
  })
  .superRefine((body, ctx) => {
    // YYYY-MM-DD strings order like the dates they name.
    if (body.endDate < body.startDate) {
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: END_BEFORE_START_MESSAGE });
    }
  });
export type BlackoutBody = z.infer<typeof blackoutBodySchema>;

export const blackoutSchema = z.object({
  id: z.string(),
  userId: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  reason: z.string().nullable(),
});
export type Blackout = z.infer<typeof blackoutSchema>;

/**
 * A pickup time choice: `datetime` is the UTC instant as ISO 8601, `label` the wall time in the
 * marketplace time zone (docs/rules/catalog-and-orders.md, Addresses, availability and slots).
 */
export const slotSchema = z.object({
  datetime: z.string(),
  label: z.string(),
});
export type Slot = z.infer<typeof slotSchema>;

/** GET /api/availability/slots/{sellerId}. */
export const sellerIdParamsSchema = z.object({ sellerId: idSchema });
