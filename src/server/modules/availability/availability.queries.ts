import { and, asc, eq, gte, lte } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { availabilitySchedules, blackoutDates, users } from '../../db/schema';

export type ScheduleRow = typeof availabilitySchedules.$inferSelect;
export type BlackoutRow = typeof blackoutDates.$inferSelect;

export async function listSchedulesOfUser(db: Db, userId: string): Promise<ScheduleRow[]> {
  return db
    .select()
    .from(availabilitySchedules)
    .where(eq(availabilitySchedules.userId, userId))
    .orderBy(
      asc(availabilitySchedules.dayOfWeek),
      asc(availabilitySchedules.startTime),
      asc(availabilitySchedules.endTime),
      asc(availabilitySchedules.id),
    );
}

export async function listActiveSchedulesOfUser(db: Db, userId: string): Promise<ScheduleRow[]> {
  return db
    .select()
    .from(availabilitySchedules)
    .where(and(eq(availabilitySchedules.userId, userId), eq(availabilitySchedules.isActive, true)));
}

export async function findScheduleById(db: Db, id: string): Promise<ScheduleRow | undefined> {
  const rows = await db.select().from(availabilitySchedules).where(eq(availabilitySchedules.id, id)).limit(1);
  return rows[0];
}

/**
 * Inserts the entry unless the user has the same day and times already (the unique index decides,
 * so two requests at once store one): undefined then.
 */
export async function insertScheduleUnlessPresent(
  db: Db,
  values: Pick<typeof availabilitySchedules.$inferInsert, 'userId' | 'dayOfWeek' | 'startTime' | 'endTime'>,
): Promise<ScheduleRow | undefined> {
  const rows = await db
    .insert(availabilitySchedules)
    .values(values)
    .onConflictDoNothing({
      target: [
        availabilitySchedules.userId,
        availabilitySchedules.dayOfWeek,
        availabilitySchedules.startTime,
        availabilitySchedules.endTime,
      ],
    })
    .returning();
  return rows[0];
}

/** Deletes only when the row is still the user's; false when nothing was deleted. */
export async function deleteScheduleOfUser(db: Db, id: string, userId: string): Promise<boolean> {
  const rows = await db
    .delete(availabilitySchedules)
    .where(and(eq(availabilitySchedules.id, id), eq(availabilitySchedules.userId, userId)))
    .returning({ id: availabilitySchedules.id });
  return rows.length > 0;
}

export async function listBlackoutsOfUser(db: Db, userId: string): Promise<BlackoutRow[]> {
  return db
    .select()
    .from(blackoutDates)
    .where(eq(blackoutDates.userId, userId))
    .orderBy(asc(blackoutDates.startDate), asc(blackoutDates.endDate), asc(blackoutDates.id));
}

/** Blackouts that share at least one day with [from, to] (YYYY-MM-DD, both included). */
export async function listBlackoutsOfUserBetween(
  db: Db,
  userId: string,
  from: string,
  to: string,
): Promise<BlackoutRow[]> {
  return db
    .select()
    .from(blackoutDates)
    .where(
      and(
        eq(blackoutDates.userId, userId),
        gte(blackoutDates.endDate, from),
        lte(blackoutDates.startDate, to),
      ),
    );
}

export async function findBlackoutById(db: Db, id: string): Promise<BlackoutRow | undefined> {
  const rows = await db.select().from(blackoutDates).where(eq(blackoutDates.id, id)).limit(1);
  return rows[0];
}

export async function insertBlackout(
  db: Db,
  values: Pick<typeof blackoutDates.$inferInsert, 'userId' | 'startDate' | 'endDate' | 'reason'>,
): Promise<BlackoutRow> {
  const rows = await db.insert(blackoutDates).values(values).returning();
  const row = rows[0];
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** Deletes only when the row is still the user's; false when nothing was deleted. */
export async function deleteBlackoutOfUser(db: Db, id: string, userId: string): Promise<boolean> {
  const rows = await db
    .delete(blackoutDates)
    .where(and(eq(blackoutDates.id, id), eq(blackoutDates.userId, userId)))
    .returning({ id: blackoutDates.id });
  return rows.length > 0;
}

/** The granted roles of a user, to tell whether they offer pickups; undefined for an unknown id. */
export async function findUserRoles(
  db: Db,
  id: string,
): Promise<{ id: string; roles: string[] } | undefined> {
  const rows = await db
    .select({ id: users.id, roles: users.roles })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return rows[0];
}
