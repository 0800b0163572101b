import type { Db } from '../../db/client';
import { conflict, forbidden, notFound } from '../../platform/errors';
import { publishLiveEvents } from '../../platform/live-events';
import { canSetRoleOf, hasRole } from '../../platform/policy';
import { endSessionsOf, type Actor } from '../../platform/sessions';
import { ROLES, sortRoles, type Role } from '../../../domain/roles';
import {
  LAST_ADMIN_MESSAGE,
  OWN_ROLE_MESSAGE,
  OWN_SUSPENSION_MESSAGE,
  type ModeratedUser,
} from '../../../domain/users';
import { recordAdminAction } from '../audit/audit.service';
import { setSellerListingsHidden } from '../products/products.service';
import { toCurrentUser } from './users.service';
import {
  countAdminsForUpdate,
  findUserForUpdate,
  grantRole,
  releaseWithheldRole,
  removeRole,
  setSuspendedAt,
  type UserRow,
} from './users.queries';

/**
 * An admin's moderation of users (docs/rules/accounts.md, Moderation): taking a role away,
 * suspending and restoring. Never on the admin's own row; each change and its activity-log record
 * are one transaction, and the user's open tabs are told at once (a live `account.changed`).
 */

const rolesOf = (row: UserRow): Role[] =>
  sortRoles(row.roles.filter((r): r is Role => (ROLES as readonly string[]).includes(r)));

export function toModeratedUser(row: UserRow): ModeratedUser {
  return {
    ...toCurrentUser(row),
    suspendedAt: row.suspendedAt?.toISOString() ?? null,
    withheldRoles: sortRoles(
      row.withheldRoles.filter((r): r is Role => (ROLES as readonly string[]).includes(r)),
    ),
  };
}

/** A seller's listings are in the catalog only while they hold the seller role and are not suspended. */
export const maySell = (row: Pick<UserRow, 'roles' | 'suspendedAt'>) =>
  hasRole(row, 'seller') && row.suspendedAt === null;

async function moderate(
  db: Db,
  actor: Actor,
  targetId: string,
  change: (tx: Db, before: UserRow, now: Date, admins: number | undefined) => Promise<UserRow | undefined>,
  options: { countAdmins?: boolean; ownRowMessage?: string } = {},
): Promise<ModeratedUser> {
  if (!canSetRoleOf(actor, targetId)) throw forbidden(options.ownRowMessage ?? OWN_ROLE_MESSAGE);
  const row = await db.transaction(async (tx) => {
    // The admins' rows are locked first, in one order, so two such changes at once queue up.
    const admins = options.countAdmins ? await countAdminsForUpdate(tx) : undefined;
    const before = await findUserForUpdate(tx, targetId);
    if (!before) throw notFound('User not found');
    const now = new Date();
    const after = (await change(tx, before, now, admins)) ?? before;
    if (maySell(before) !== maySell(after)) await setSellerListingsHidden(tx, targetId, !maySell(after), now);
    return after;
  });
  await publishLiveEvents(db, [
    { event: { type: 'account.changed', userId: targetId }, audience: [targetId] },
  ]);
  return toModeratedUser(row);
}

/**
 * PATCH /api/admin/users/{id}/role: an admin grants another user a role and makes it their current
 * one (docs/rules/accounts.md, Roles and permissions); a role an admin had taken away is the user's
 * again, and granting seller brings their listings back unless they are suspended.
 */
export async function adminSetRole(
  db: Db,
  actor: Actor,
  targetId: string,
  role: Role,
): Promise<ModeratedUser> {
  return moderate(db, actor, targetId, async (tx, before, now) => {
    await releaseWithheldRole(tx, targetId, role);
    const after = await grantRole(tx, targetId, role, true);
    if (!after) throw notFound('User not found');
    if (after.role !== before.role || after.roles.length !== before.roles.length) {
      await recordAdminAction(tx, actor, {
        action: 'user.role_changed',
        target: { type: 'user', id: targetId, label: after.email },
        before: { role: before.role, roles: rolesOf(before) },
        after: { role: after.role, roles: rolesOf(after) },
        now,
      });
    }
    return after;
  });
}

/**
 * DELETE /api/admin/users/{id}/roles/{role}: takes seller, driver or admin away. The user cannot
 * take it back by themself; a current role taken away falls back to buyer; taking seller away hides
 * their listings and keeps their orders. The last admin keeps the admin role (409).
 */
export async function removeUserRole(
  db: Db,
  actor: Actor,
  targetId: string,
  role: Exclude<Role, 'buyer'>,
): Promise<ModeratedUser> {
  return moderate(
    db,
    actor,
    targetId,
    async (tx, before, now, admins) => {
      if (!hasRole(before, role)) return before;
      if (role === 'admin' && (admins ?? 0) <= 1) throw conflict(LAST_ADMIN_MESSAGE);
      const after = await removeRole(tx, targetId, role);
      if (!after) throw notFound('User not found');
      await recordAdminAction(tx, actor, {
        action: 'user.role_removed',
        target: { type: 'user', id: targetId, label: after.email },
        before: { role: before.role, roles: rolesOf(before) },
        after: { role: after.role, roles: rolesOf(after) },
        now,
      });
      return after;
    },
    { countAdmins: role === 'admin' },
  );
}

/**
 * POST /api/admin/users/{id}/suspend and /restore: a suspended user's sessions end at once, their
 * sign-in is refused with a clear message and their listings leave the catalog; their orders stay,
 * and the open ones are flagged on the admin's orders list. Suspending a suspended user, or
 * restoring an allowed one, changes nothing and records nothing.
 */
export async function setUserSuspended(
  db: Db,
  actor: Actor,
  targetId: string,
  suspended: boolean,
): Promise<ModeratedUser> {
  return moderate(
    db,
    actor,
    targetId,
    async (tx, before, now) => {
      if ((before.suspendedAt !== null) === suspended) return before;
      const after = await setSuspendedAt(tx, targetId, suspended ? now : null);
      if (!after) throw notFound('User not found');
      if (suspended) await endSessionsOf(tx, targetId);
      await recordAdminAction(tx, actor, {
        action: suspended ? 'user.suspended' : 'user.restored',
        target: { type: 'user', id: targetId, label: after.email },
        before: { suspended: !suspended },
        after: { suspended },
        now,
      });
      return after;
    },
    { ownRowMessage: OWN_SUSPENSION_MESSAGE },
  );
}
