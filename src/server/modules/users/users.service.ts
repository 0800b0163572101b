import type { Db } from '../../db/client';
import { forbidden, notFound } from '../../platform/errors';
import { canChangeOwnRole, canSetRoleOf, isAdmin } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import type { CurrentUser, PublicUser, UpdateNamesBody } from '../../../domain/users';
import { ROLES, sortRoles, type Role, type SelfServiceRole } from '../../../domain/roles';
import { recordAdminAction } from '../audit/audit.service';
import {
  findUserById,
  findUserForUpdate,
  grantRole,
  setCurrentRole,
  updateUser,
  type UserRow,
} from './users.queries';

function rolesOf(row: UserRow): Role[] {
  return sortRoles(row.roles.filter((r): r is Role => (ROLES as readonly string[]).includes(r)));
}

function roleOf(row: UserRow): Role {
  return (ROLES as readonly string[]).includes(row.role) ? (row.role as Role) : 'buyer';
}

export function toCurrentUser(row: UserRow): CurrentUser {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    profileImageUrl: row.profileImageUrl,
    role: roleOf(row),
    roles: rolesOf(row),
    isVerified: row.isVerified,
    vehicleImageUrl: row.vehicleImageUrl,
    licenseImageUrl: row.licenseImageUrl,
    trailerImageUrl: row.trailerImageUrl,
    stripeOnboardingComplete: row.stripeOnboardingComplete,
    createdAt: row.createdAt.toISOString(),
  };
}

export function toPublicUser(row: UserRow): PublicUser {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    profileImageUrl: row.profileImageUrl,
    role: roleOf(row),
    isVerified: row.isVerified,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function getPublicProfile(db: Db, id: string): Promise<PublicUser> {
  const row = await findUserById(db, id);
  if (!row) throw notFound('User not found');
  return toPublicUser(row);
}

export async function updateOwnNames(db: Db, actor: Actor, body: UpdateNamesBody): Promise<CurrentUser> {
  const row = await updateUser(db, actor.id, { firstName: body.firstName, lastName: body.lastName });
  if (!row) throw notFound('User not found');
  return toCurrentUser(row);
}

/**
 * The header switcher: own id only, and only to a granted role
 * (docs/product-rules.md, Roles and permissions).
 */
export async function switchOwnRole(
  db: Db,
  actor: Actor,
  targetId: string,
  role: Role,
): Promise<CurrentUser> {
  if (!canChangeOwnRole(actor, targetId)) {
    throw forbidden('You can only switch your own role. Contact an administrator to change another account.');
  }
  const row = await setCurrentRole(db, actor.id, role);
  if (!row) {
    throw forbidden(`You do not have the ${role} role. Contact an administrator if you need it.`);
  }
  return toCurrentUser(row);
}

/**
 * "Become a seller / driver" (docs/product-rules.md, Roles and permissions): self-service roles,
 * granted and made current.
 */
export async function becomeRole(db: Db, actor: Actor, role: SelfServiceRole): Promise<CurrentUser> {
  const row = await grantRole(db, actor.id, role, true);
  if (!row) throw notFound('User not found');
  return toCurrentUser(row);
}

/**
 * An admin grants and sets any other user's role, never their own row
 * (docs/product-rules.md, Roles and permissions).
 */
export async function adminSetRole(db: Db, actor: Actor, targetId: string, role: Role): Promise<CurrentUser> {
  if (!isAdmin(actor)) throw forbidden('You must be an admin to change user roles');
  if (!canSetRoleOf(actor, targetId)) throw forbidden('Admins cannot change their own role');
  // The change and its audit record (docs/product-rules.md, Admin) are kept or lost together.
  const row = await db.transaction(async (tx) => {
    const before = await findUserForUpdate(tx, targetId);
    if (!before) throw notFound('User not found');
    const after = await grantRole(tx, targetId, role, true);
    if (!after) throw notFound('User not found');
    if (after.role !== before.role || after.roles.length !== before.roles.length) {
      await recordAdminAction(tx, actor, {
        action: 'user.role_changed',
        target: { type: 'user', id: targetId, label: after.email },
        before: { role: before.role, roles: rolesOf(before) },
        after: { role: after.role, roles: rolesOf(after) },
      });
    }
    return after;
  });
  return toCurrentUser(row);
}
