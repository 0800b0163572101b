import type { Db } from '../../db/client';
import { conflict, notFound } from '../../platform/errors';
import { canManageAvailability, canOfferPickups } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import {
  duplicateScheduleMessage,
  type Blackout,
  type BlackoutBody,
  type Schedule,
  type ScheduleBody,
  type Slot,
} from '../../../domain/availability';
import { generatePickupSlots, PICKUP_DAYS, pickupSlotsChangeAt } from '../../../domain/slots';
import type { CachedAnswer, PublicAnswerCache } from '../../platform/public-cache';
import {
  deleteBlackoutOfUser,
  deleteScheduleOfUser,
  findBlackoutById,
  findScheduleById,
  findUserRoles,
  insertBlackout,
  insertScheduleUnlessPresent,
  listActiveSchedulesOfUser,
  listBlackoutsOfUser,
  listBlackoutsOfUserBetween,
  listSchedulesOfUser,
  type BlackoutRow,
  type ScheduleRow,
} from './availability.queries';

const DAY_MS = 24 * 60 * 60 * 1000;

export function toSchedule(row: ScheduleRow): Schedule {
  return {
    id: row.id,
    userId: row.userId,
    dayOfWeek: row.dayOfWeek,
    startTime: row.startTime,
    endTime: row.endTime,
    isActive: row.isActive,
  };
}

export function toBlackout(row: BlackoutRow): Blackout {
  return {
    id: row.id,
    userId: row.userId,
    startDate: row.startDate,
    endDate: row.endDate,
    reason: row.reason,
  };
}

export async function listOwnSchedules(db: Db, actor: Actor): Promise<Schedule[]> {
  return (await listSchedulesOfUser(db, actor.id)).map(toSchedule);
}

/**
 * Adds a day and time range; the same day and times again is a 409 naming them, while an
 * overlapping range is another entry (docs/decisions/0006-pickup-slots.md).
 */
export async function addSchedule(db: Db, actor: Actor, body: ScheduleBody): Promise<Schedule> {
  const row = await insertScheduleUnlessPresent(db, {
    userId: actor.id,
    dayOfWeek: body.dayOfWeek,
    startTime: body.startTime,
    endTime: body.endTime,
  });
  if (!row) throw conflict(duplicateScheduleMessage(body));
  return toSchedule(row);
}

export async function removeSchedule(db: Db, actor: Actor, id: string): Promise<void> {
  const row = await findScheduleById(db, id);
  if (!row || !canManageAvailability(actor, row)) throw notFound('Schedule not found');
  // Conditional on the owner as well, so the check and the delete cannot disagree.
  if (!(await deleteScheduleOfUser(db, id, actor.id))) throw notFound('Schedule not found');
}

export async function listOwnBlackouts(db: Db, actor: Actor): Promise<Blackout[]> {
  return (await listBlackoutsOfUser(db, actor.id)).map(toBlackout);
}

export async function addBlackout(db: Db, actor: Actor, body: BlackoutBody): Promise<Blackout> {
  const row = await insertBlackout(db, {
    userId: actor.id,
    startDate: body.startDate,
    endDate: body.endDate,
    reason: body.reason,
  });
  return toBlackout(row);
}

export async function removeBlackout(db: Db, actor: Actor, id: string): Promise<void> {
  const row = await findBlackoutById(db, id);
  if (!row || !canManageAvailability(actor, row)) throw notFound('Blackout date not found');
  if (!(await deleteBlackoutOfUser(db, id, actor.id))) throw notFound('Blackout date not found');
}

/**
 * The seller's pickup choices for the next 14 days, in the marketplace time zone
 * (docs/rules/catalog-and-orders.md, Addresses, availability and slots).
 */
export async function getPickupSlots(db: Db, sellerId: string, timeZone: string, now: Date): Promise<Slot[]> {
  const seller = await findUserRoles(db, sellerId);
  if (!seller || !canOfferPickups(seller)) throw notFound('Seller not found');
  const schedules = await listActiveSchedulesOfUser(db, sellerId);
  if (schedules.length === 0) return [];
  // Local dates are within a day of the UTC date, so these bounds hold every blackout that matters.
  const from = new Date(now.getTime() - DAY_MS).toISOString().slice(0, 10);
  const to = new Date(now.getTime() + (PICKUP_DAYS + 1) * DAY_MS).toISOString().slice(0, 10);
  const blackouts = await listBlackoutsOfUserBetween(db, sellerId, from, to);
  return generatePickupSlots({ schedules, blackouts, now, timeZone });
}

/**
 * GET /api/availability/slots/{sellerId} as sent, from the public cache
 * (docs/decisions/0015-catalog-and-checkout-throughput.md): kept until the seller's schedule,
 * blackouts or roles change, and never past the moment the clock alone changes it: its first slot
 * coming within the lead time, or the next day coming into the window.
 */
export function pickupSlotsAnswer(
  db: Db,
  cache: PublicAnswerCache,
  sellerId: string,
  timeZone: string,
  now: () => Date,
  serialize: (slots: Slot[]) => Buffer,
): Promise<CachedAnswer> {
  return cache.answerIfKeepable(`slots ${sellerId}`, async () => {
    const at = now();
    const slots = await getPickupSlots(db, sellerId, timeZone, at);
    return { body: serialize(slots), keepable: true, validUntil: pickupSlotsChangeAt(slots, at, timeZone) };
  });
}
