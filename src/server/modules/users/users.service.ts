import type { Db } from '../../db/client';
import { AppError, forbidden, notFound } from '../../platform/errors';
import type { Actor } from '../../platform/sessions';
import type { CurrentUser, PublicUser, UpdateNamesBody } from '../../../domain/users';
import { ROLES, sortRoles, type Role, type SelfServiceRole } from '../../../domain/roles';
import { findUserById, grantRole, setCurrentRole, updateUser, type UserRow } from './users.queries';

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

export function hasRole(actor: Actor, role: Role): boolean {
  return actor.roles.includes(role);
}

export function canChangeOwnRole(actor: Actor, targetId: string): boolean {
  return actor.id === targetId;
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

/** The header switcher: own id only, and only to a granted role (DECISIONS §2). */
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

/** "Become a seller / driver" (DECISIONS §2): self-service roles, granted and made current. */
export async function becomeRole(db: Db, actor: Actor, role: SelfServiceRole): Promise<CurrentUser> {
  const row = await grantRole(db, actor.id, role, true);
  if (!row) throw notFound('User not found');
  return toCurrentUser(row);
}

/** An admin grants and sets any other user's role, never their own row (DECISIONS §2). */
export async function adminSetRole(db: Db, actor: Actor, targetId: string, role: Role): Promise<CurrentUser> {
  if (!hasRole(actor, 'admin')) throw forbidden('You must be an admin to change user roles');
  if (actor.id === targetId) throw forbidden('Admins cannot change their own role');
  const row = await grantRole(db, targetId, role, true);
  if (!row) throw notFound('User not found');
  return toCurrentUser(row);
}

export async function requireExistingUser(db: Db, id: string): Promise<UserRow> {
  const row = await findUserById(db, id);
  if (!row) throw new AppError('not_found', 'User not found');
  return row;
}
