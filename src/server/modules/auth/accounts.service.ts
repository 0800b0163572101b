import crypto from 'node:crypto';
import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accountTokens, passwordCredentials, users } from '../../db/schema';
import { badRequest, conflict, forbidden } from '../../platform/errors';
import { endSessionsOf } from '../../platform/sessions';
import { tooManyRequests, waitText, type RateLimiter } from '../../platform/rate-limit';
import {
  ACCOUNT_TOKEN_PATTERN,
  RESET_LINK_MINUTES,
  VERIFY_LINK_HOURS,
  WRONG_CURRENT_PASSWORD,
  type AccountTokenPurpose,
  type ChangePasswordBody,
} from '../../../domain/accounts';
import { ACCOUNT_SUSPENDED_MESSAGE } from '../../../domain/users';
import { queueMail } from '../notifications/mail-layout';
import { recordAdminAction } from '../audit/audit.service';
import { findUserByEmail, type UserRow } from '../users/user-records';
import { hashPassword, verifyPassword } from './passwords';

/**
 * Password reset, email verification and change of password for local accounts
 * (docs/decisions/0019-reaching-people.md, Accounts). A link carries 32 random bytes; only their
 * sha256 is stored, and a link works once, before its expiry.
 */

const LIFETIME_MS: Record<AccountTokenPurpose, number> = {
  reset: RESET_LINK_MINUTES * 60_000,
  verify: VERIFY_LINK_HOURS * 60 * 60_000,
};

const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

export async function limitAccountMail(db: Db, limiter: RateLimiter, ip: string): Promise<void> {
  const wait = await limiter.hit(db, ip);
  if (wait > 0)
    throw tooManyRequests(
      `Too many emails asked for from this network. Please try again in ${waitText(wait)}.`,
    );
}

/**
 * Ends every link of these purposes the user still holds
 * (docs/decisions/0023-accounts-an-attacker-cannot-bend.md): a newer link, a reset, a change of password or a
 * confirmed address leaves no older one working.
 */
async function endLinksOf(
  tx: Db,
  userId: string,
  purposes: readonly AccountTokenPurpose[],
  now: Date,
): Promise<void> {
  await tx
    .update(accountTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(accountTokens.userId, userId),
        inArray(accountTokens.purpose, [...purposes]),
        isNull(accountTokens.usedAt),
      ),
    );
}

/** A new link; the user's older links of the same purpose stop working. */
async function issueToken(tx: Db, userId: string, purpose: AccountTokenPurpose, now: Date): Promise<string> {
  await endLinksOf(tx, userId, [purpose], now);
  const token = crypto.randomBytes(32).toString('base64url');
  await tx.insert(accountTokens).values({
    userId,
    purpose,
    tokenHash: hashToken(token),
    expiresAt: new Date(now.getTime() + LIFETIME_MS[purpose]),
    createdAt: now,
  });
  return token;
}

/** Uses the link up: answers its user when it was unused and unexpired, else null. */
async function consumeToken(
  tx: Db,
  token: string,
  purpose: AccountTokenPurpose,
  now: Date,
): Promise<string | null> {
  const rows = await tx
    .update(accountTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(accountTokens.tokenHash, hashToken(token)),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, now),
      ),
    )
    .returning({ userId: accountTokens.userId });
  return rows[0]?.userId ?? null;
}

/** Whether a link is still good, without using it up (its page shows the form, or "expired" at once). */
export async function tokenIsLive(
  db: Db,
  token: string,
  purpose: AccountTokenPurpose,
  now: Date,
): Promise<boolean> {
  if (!ACCOUNT_TOKEN_PATTERN.test(token)) return false;
  const rows = await db
    .select({ id: accountTokens.id })
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.tokenHash, hashToken(token)),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, now),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

const resetUrl = (siteUrl: string, token: string) => `${siteUrl}/api/reset-password?token=${token}`;
/** The link signs in and lands on `returnTo` (checkout, when the account was made there). */
const verifyUrl = (siteUrl: string, token: string, returnTo: string) =>
  `${siteUrl}/api/verify-email?token=${token}${returnTo === '/' ? '' : `&returnTo=${encodeURIComponent(returnTo)}`}`;

export async function queueVerificationMail(
  tx: Db,
  user: UserRow,
  siteUrl: string,
  now: Date,
  returnTo = '/',
): Promise<void> {
  const token = await issueToken(tx, user.id, 'verify', now);
  await queueMail(tx, {
    kind: 'account_verify',
    userId: user.id,
    content: {
      to: user.email,
      greetingName: user.firstName,
      subject: 'Confirm your email address',
      paragraphs: [
        'Thanks for creating an account. Confirm that this address is yours to finish and sign in.',
        `The link works once, for ${VERIFY_LINK_HOURS} hours. If you did not create an account, ignore this email.`,
      ],
      action: { label: 'Confirm your email address', url: verifyUrl(siteUrl, token, returnTo) },
    },
  });
}

/**
 * Sign-up with an address that has an account: its owner hears of it; the account is unchanged. The
 * mail carries no live link, so a stranger cannot mint reset links by signing up with the address
 * (docs/decisions/0023-accounts-an-attacker-cannot-bend.md).
 */
export async function queueAccountExistsMail(tx: Db, user: UserRow, siteUrl: string): Promise<void> {
  await queueMail(tx, {
    kind: 'account_exists',
    userId: user.id,
    content: {
      to: user.email,
      greetingName: user.firstName,
      subject: 'Someone tried to create an account with this address',
      paragraphs: [
        'Someone tried to create an account with this email address, which already has one. Your account is unchanged.',
        'If it was you, sign in with the link below, or use "Forgot password?" on the sign-in page to set a new password. If it was not you, ignore this email.',
      ],
      action: { label: 'Sign in', url: `${siteUrl}/api/login` },
    },
  });
}

/**
 * "Forgot password?", as the account request runs it after the answer: a reset link to an existing
 * account that is not suspended, nothing to an unknown address.
 */
export async function mailPasswordReset(db: Db, email: string, siteUrl: string, now: Date): Promise<void> {
  const user = await findUserByEmail(db, email);
  if (!user || user.suspendedAt) return;
  await db.transaction(async (tx) => {
    const token = await issueToken(tx, user.id, 'reset', now);
    await queueMail(tx, {
      kind: 'account_reset',
      userId: user.id,
      content: {
        to: user.email,
        greetingName: user.firstName,
        subject: 'Reset your password',
        paragraphs: [
          'Someone, probably you, asked to reset the password of your account.',
          `The link works once, for ${RESET_LINK_MINUTES} minutes. If you did not ask, ignore this email: your password is unchanged.`,
        ],
        action: { label: 'Set a new password', url: resetUrl(siteUrl, token) },
      },
    });
  });
}

/** The mail that tells the owner their password changed, with no live link in it. */
function queuePasswordChangedMail(tx: Db, user: UserRow, siteUrl: string, how: 'reset' | 'profile') {
  return queueMail(tx, {
    kind: 'password_changed',
    userId: user.id,
    content: {
      to: user.email,
      greetingName: user.firstName,
      subject: 'Your password was changed',
      paragraphs: [
        how === 'reset'
          ? 'The password of your account was just set anew with a link from a reset email, and every device was signed out.'
          : 'The password of your account was just changed, and every other device was signed out.',
        'If this was not you, reset your password now with the link below, and contact support.',
      ],
      action: { label: 'Reset your password', url: `${siteUrl}/api/forgot-password` },
    },
  });
}

/**
 * Sets the new password of the link's user: the link is used up, every session of the user ends,
 * and the address counts as verified (the mail reached them). Null: the link expired or was used.
 */
export async function resetPassword(
  db: Db,
  token: string,
  password: string,
  siteUrl: string,
  now: Date,
): Promise<boolean> {
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const userId = await consumeToken(tx, token, 'reset', now);
    if (!userId) return false;
    await tx
      .insert(passwordCredentials)
      .values({ userId, passwordHash })
      .onConflictDoUpdate({ target: passwordCredentials.userId, set: { passwordHash } });
    await tx
      .update(users)
      .set({ emailVerifiedAt: now })
      .where(and(eq(users.id, userId), isNull(users.emailVerifiedAt)));
    // Every other link ends with it; the address is proved, so its verification links too
    // (docs/decisions/0023-accounts-an-attacker-cannot-bend.md).
    await endLinksOf(tx, userId, ['reset', 'verify'], now);
    await endSessionsOf(tx, userId);
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).limit(1);
    if (!user) throw new Error("the link's user vanished");
    // The activity log, with the user as the actor (docs/rules/known-differences.md, Admin).
    await recordAdminAction(tx, user, {
      action: 'user.password_reset',
      target: { type: 'user', id: user.id, label: user.email },
      before: null,
      after: null,
      now,
    });
    await queuePasswordChangedMail(tx, user, siteUrl, 'reset');
    return true;
  });
}

/** The verification link: the address is proved; answers the user to sign in, or null. */
export async function verifyEmail(db: Db, token: string, now: Date): Promise<UserRow | null> {
  if (!ACCOUNT_TOKEN_PATTERN.test(token)) return null;
  const user = await db.transaction(async (tx) => {
    const userId = await consumeToken(tx, token, 'verify', now);
    if (!userId) return null;
    await endLinksOf(tx, userId, ['verify'], now);
    await tx
      .update(users)
      .set({ emailVerifiedAt: now })
      .where(and(eq(users.id, userId), isNull(users.emailVerifiedAt)));
    const rows = await tx.select().from(users).where(eq(users.id, userId)).limit(1);
    return rows[0] ?? null;
  });
  if (user?.suspendedAt) throw forbidden(ACCOUNT_SUSPENDED_MESSAGE);
  return user;
}

/**
 * "Resend the link", as the account request runs it after the answer: a fresh verification link,
 * only to an existing account that is not verified yet.
 */
export async function mailVerificationAgain(
  db: Db,
  email: string,
  siteUrl: string,
  now: Date,
): Promise<void> {
  const user = await findUserByEmail(db, email);
  if (!user || user.emailVerifiedAt || user.suspendedAt) return;
  await db.transaction((tx) => queueVerificationMail(tx, user, siteUrl, now));
}

/**
 * Change of password from the profile: the current one must be right; every other session of the
 * user ends (this one stays) and a mail tells the owner.
 */
export async function changePassword(
  db: Db,
  user: UserRow,
  body: ChangePasswordBody,
  keepSessionId: string | null,
  siteUrl: string,
): Promise<void> {
  const credential = (
    await db.select().from(passwordCredentials).where(eq(passwordCredentials.userId, user.id)).limit(1)
  )[0];
  if (!credential)
    throw conflict('This account signs in through its identity provider and has no password here.');
  if (!(await verifyPassword(body.currentPassword, credential.passwordHash)))
    throw badRequest(WRONG_CURRENT_PASSWORD, { currentPassword: WRONG_CURRENT_PASSWORD });
  const passwordHash = await hashPassword(body.newPassword);
  await db.transaction(async (tx) => {
    await tx.update(passwordCredentials).set({ passwordHash }).where(eq(passwordCredentials.userId, user.id));
    // A reset link mailed before the change no longer works after it
    // (docs/decisions/0023-accounts-an-attacker-cannot-bend.md).
    await endLinksOf(tx, user.id, ['reset'], new Date());
    await endSessionsOf(tx, user.id, keepSessionId);
    await queuePasswordChangedMail(tx, user, siteUrl, 'profile');
  });
}
