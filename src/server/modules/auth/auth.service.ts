import type { Db } from '../../db/client';
import { passwordCredentials } from '../../db/schema';
import { AppError, conflict, forbidden } from '../../platform/errors';
import { CONFIRM_EMAIL_FIRST } from '../../../domain/accounts';
import { createAccountOrNote, startingRoles } from './account-requests';
import { isAdmin } from '../../platform/policy';
import { tooManyRequests, waitText, type RateLimits } from '../../platform/rate-limit';
import type { SignInBody, SignUpBody } from '../../../domain/auth';
import type { SelfServiceRole } from '../../../domain/roles';
import { ACCOUNT_SUSPENDED_MESSAGE } from '../../../domain/users';
import type { IdentityClaims } from '../../adapters/identity/identity-provider';
import { eq } from 'drizzle-orm';
import { decoyHash, hashPassword, verifyPassword } from './passwords';
import {
  findUserByEmail,
  findUserByOidcIdentity,
  grantRole,
  insertUser,
  updateUser,
  type UserRow,
} from '../users/user-records';

export const INVALID_CREDENTIALS = 'Invalid email or password';

/**
 * ADMIN_EMAILS bootstrap (docs/rules/accounts.md, Roles and permissions): an email on the list is
 * granted admin at sign-in and, the first time, lands in the admin role.
 */
async function applyAdminBootstrap(db: Db, user: UserRow, adminEmails: readonly string[]): Promise<UserRow> {
  if (!adminEmails.includes(user.email.toLowerCase()) || isAdmin(user)) return user;
  return (await grantRole(db, user.id, 'admin', true)) ?? user;
}

/** "Become a Driver" from the landing page, or any self-service role asked for at sign-in. */
async function applyIntent(db: Db, user: UserRow, intent: SelfServiceRole | undefined): Promise<UserRow> {
  // A role an admin took away is not taken back by signing in with it (docs/rules/accounts.md, Moderation).
  if (!intent || user.withheldRoles.includes(intent)) return user;
  return (await grantRole(db, user.id, intent, true)) ?? user;
}

/**
 * Sign-up answers the same whether the address has an account or not, and does the same work in
 * the request (docs/decisions/0023-accounts-an-attacker-cannot-bend.md): the password is hashed and
 * one statement makes the account unless the address has one, and queues the request. After the
 * answer, a new address gets a verification link; an existing one's owner a mail saying someone
 * tried, without a link, and nothing changes.
 */
export async function signUpWithPassword(
  db: Db,
  body: SignUpBody,
  limits: RateLimits,
  ip: string,
  adminEmails: readonly string[],
  returnTo = '/',
): Promise<void> {
  const wait = await limits.signUpPerIp.hit(db, ip);
  if (wait > 0)
    throw tooManyRequests(
      `Too many accounts created from this network. Please try again in ${waitText(wait)}.`,
    );
  const passwordHash = await hashPassword(body.password);
  await createAccountOrNote(db, {
    email: body.email,
    firstName: body.firstName,
    lastName: body.lastName,
    passwordHash,
    ...startingRoles(adminEmails.includes(body.email.toLowerCase()), body.intent),
    returnTo,
  });
}

/**
 * The password step of a sign-in. With two-factor sign-in on, the account is only named here: the
 * code step finishes it (docs/decisions/0024-two-factor-sign-in.md), and nothing of the sign-in
 * (the admin bootstrap, the role asked for) happens before.
 */
export interface PasswordSignIn {
  user: UserRow;
  needsSecondFactor: boolean;
}

export async function signInWithPassword(
  db: Db,
  body: SignInBody,
  limits: RateLimits,
  ip: string,
  adminEmails: readonly string[],
): Promise<PasswordSignIn> {
  const ipWait = await limits.signInPerIp.hit(db, ip);
  if (ipWait > 0)
    throw tooManyRequests(`Too many sign-in attempts. Please try again in ${waitText(ipWait)}.`);
  // Failures slow the next tries down, per account and per account and address, but never refuse the
  // right password (docs/decisions/0003-rate-limits.md, Sign-in failures).
  const account = body.email.toLowerCase();
  const fromHere = `${account} ${ip}`;
  const wait = Math.max(
    await limits.signInFailuresPerAccount.delayMs(db, account),
    await limits.signInFailuresPerAccountAndAddress.delayMs(db, fromHere),
  );
  if (wait > 0) await limits.pause(wait);
  const user = await findUserByEmail(db, body.email);
  const credential = user
    ? (await db.select().from(passwordCredentials).where(eq(passwordCredentials.userId, user.id)).limit(1))[0]
    : undefined;
  // Compare against a decoy when there is no account, so timing does not reveal which emails exist.
  const matches = await verifyPassword(body.password, credential?.passwordHash ?? (await decoyHash()));
  if (!user || !credential || !matches) {
    await limits.signInFailuresPerAccount.fail(db, account);
    await limits.signInFailuresPerAccountAndAddress.fail(db, fromHere);
    throw new AppError('unauthorized', INVALID_CREDENTIALS);
  }
  await limits.signInFailuresPerAccountAndAddress.reset(db, fromHere);
  // Only once the password is right: a suspended account is no secret to its owner.
  if (user.suspendedAt) throw forbidden(ACCOUNT_SUSPENDED_MESSAGE);
  // An address not proved yet (docs/decisions/0019-reaching-people.md, Accounts).
  if (!user.emailVerifiedAt) throw forbidden(CONFIRM_EMAIL_FIRST);
  if (user.twoFactorEnabledAt) return { user, needsSecondFactor: true };
  return { user: await finishSignIn(db, user, body.intent, adminEmails), needsSecondFactor: false };
}

/** What a sign-in does once every factor is proved: the ADMIN_EMAILS bootstrap and the role asked for. */
export async function finishSignIn(
  db: Db,
  user: UserRow,
  intent: SelfServiceRole | undefined,
  adminEmails: readonly string[],
): Promise<UserRow> {
  if (user.suspendedAt) throw forbidden(ACCOUNT_SUSPENDED_MESSAGE);
  const bootstrapped = await applyAdminBootstrap(db, user, adminEmails);
  return applyIntent(db, bootstrapped, intent);
}

/** Finds or creates the user for an OpenID Connect identity, matching a local account by email once. */
export async function signInWithIdentity(
  db: Db,
  claims: IdentityClaims,
  intent: SelfServiceRole | undefined,
  adminEmails: readonly string[],
): Promise<UserRow> {
  let user = await findUserByOidcIdentity(db, claims.issuer, claims.subject);
  if (!user) {
    if (!claims.email)
      throw new AppError('bad_request', 'Your identity provider did not share an email address.');
    const byEmail = await findUserByEmail(db, claims.email);
    // Link to an existing account only when the provider vouches for the email: otherwise anyone
    // who can claim an address at the provider could take over that account.
    if (
      byEmail &&
      ((byEmail.oidcSubject && byEmail.oidcSubject !== claims.subject) || !claims.emailVerified)
    ) {
      throw conflict('An account with this email already exists and cannot be linked to this sign-in.');
    }
    user = byEmail
      ? await updateUser(db, byEmail.id, {
          oidcIssuer: claims.issuer,
          oidcSubject: claims.subject,
          // Linked only when the provider vouches for the address: it counts as verified.
          emailVerifiedAt: byEmail.emailVerifiedAt ?? new Date(),
        })
      : await insertUser(db, {
          email: claims.email,
          firstName: claims.firstName ?? null,
          lastName: claims.lastName ?? null,
          profileImageUrl: claims.picture ?? null,
          oidcIssuer: claims.issuer,
          oidcSubject: claims.subject,
          // The provider answers for the address (docs/decisions/0019-reaching-people.md, Accounts).
          emailVerifiedAt: new Date(),
        });
    if (!user) throw new Error('user vanished during sign-in');
  }
  if (user.suspendedAt) throw forbidden(ACCOUNT_SUSPENDED_MESSAGE);
  user = await applyAdminBootstrap(db, user, adminEmails);
  return applyIntent(db, user, intent);
}
