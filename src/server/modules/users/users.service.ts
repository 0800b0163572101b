import type { Db } from '../../db/client';
import { forbidden, notFound } from '../../platform/errors';
import { canChangeOwnRole } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import {
  roleWithheldMessage,
  type CurrentUser,
  type PublicUser,
  type UpdateNamesBody,
} from '../../../domain/users';
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
    emailVerified: row.emailVerifiedAt !== null,
    // An OpenID Connect sign-in always records its issuer (docs/decisions/0019-reaching-people.md, Accounts).
    localAccount: row.oidcIssuer === null,
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
 * (docs/rules/accounts.md, Roles and permissions).
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
 * "Become a seller / driver" (docs/rules/accounts.md, Roles and permissions): self-service roles,
 * granted and made current.
 */
export async function becomeRole(db: Db, actor: Actor, role: SelfServiceRole): Promise<CurrentUser> {
  // A role an admin took away is not taken back by oneself (docs/rules/accounts.md, Moderation).
  if (actor.withheldRoles.includes(role)) throw forbidden(roleWithheldMessage(role));
  const row = await grantRole(db, actor.id, role, true);
  if (!row) throw notFound('User not found');
  return toCurrentUser(row);
}
