import { and, count, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { adminActions, users } from '../../db/schema';

export async function insertAdminAction(db: Db, values: typeof adminActions.$inferInsert): Promise<void> {
  await db.insert(adminActions).values(values);
}

/** One page of the audit trail, newest first, with who did it. */
export async function listAdminActionsPage(db: Db, page: { limit: number; offset: number }) {
  const rows = await db
    .select({
      action: adminActions,
      actorFirstName: users.firstName,
      actorLastName: users.lastName,
      actorEmail: users.email,
    })
    .from(adminActions)
    .innerJoin(users, eq(users.id, adminActions.actorId))
    .orderBy(desc(adminActions.createdAt), desc(adminActions.id))
    .limit(page.limit)
    .offset(page.offset);
  const [total] = await db.select({ n: count() }).from(adminActions);
  return { rows, total: total?.n ?? 0 };
}

/** The newest of these actions on one target, with the admin's names. */
export async function findLatestActionOn(
  db: Db,
  target: { type: string; id: string },
  actions: readonly string[],
) {
  const [row] = await db
    .select({
      action: adminActions.action,
      createdAt: adminActions.createdAt,
      actorFirstName: users.firstName,
      actorLastName: users.lastName,
    })
    .from(adminActions)
    .innerJoin(users, eq(users.id, adminActions.actorId))
    .where(
      and(
        eq(adminActions.targetType, target.type),
        eq(adminActions.targetId, target.id),
        inArray(adminActions.action, [...actions]),
      ),
    )
    .orderBy(desc(adminActions.createdAt), desc(adminActions.id))
    .limit(1);
  return row;
}

/** For a page of users: the newest of these actions on each, in one query. */
export async function listLatestActionsOn(
  db: Db,
  targetType: string,
  targetIds: readonly string[],
  actions: readonly string[],
) {
  if (targetIds.length === 0) return [];
  return db
    .selectDistinctOn([adminActions.targetId], {
      targetId: adminActions.targetId,
      action: adminActions.action,
      createdAt: adminActions.createdAt,
      actorFirstName: users.firstName,
      actorLastName: users.lastName,
    })
    .from(adminActions)
    .innerJoin(users, eq(users.id, adminActions.actorId))
    .where(
      and(
        eq(adminActions.targetType, targetType),
        inArray(adminActions.targetId, [...targetIds]),
        inArray(adminActions.action, [...actions]),
      ),
    )
    .orderBy(adminActions.targetId, desc(adminActions.createdAt), desc(adminActions.id));
}
