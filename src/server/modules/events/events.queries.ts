import { and, eq, gt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sessions, users } from '../../db/schema';

export type UserRow = typeof users.$inferSelect;

/**
 * The user of a session that is still valid, as it is now (roles and driver documents may have
 * changed since the stream opened); undefined once the session is gone or expired.
 */
export async function findSessionUser(db: Db, sid: string, now: Date): Promise<UserRow | undefined> {
  const rows = await db
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.sid, sid), gt(sessions.expire, now)))
    .limit(1);
  return rows[0]?.user;
}
