import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { passwordCredentials } from '../../db/schema';
import { AppError, badRequest, conflict } from '../../platform/errors';
import { tooManyRequests, waitText, type RateLimiter } from '../../platform/rate-limit';
import type { Actor } from '../../platform/sessions';
import {
  RECOVERY_CODE_PATTERN,
  SIGN_IN_CODE_EXPIRED,
  TOTP_CODE_PATTERN,
  WRONG_PASSWORD_OR_CODE,
  WRONG_TWO_FACTOR_CODE,
  normaliseCode,
  type DisableTwoFactorBody,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from '../../../domain/two-factor';
import { recordAdminAction } from '../audit/audit.service';
import { queueMail } from '../notifications/mail-layout';
import { findUserById, setTwoFactorEnabledAt, type UserRow } from '../users/user-records';
import { verifyPassword } from './passwords';
import {
  decryptSecret,
  encryptSecret,
  hashRecoveryCode,
  matchingStep,
  newRecoveryCodes,
  newSecret,
  qrCodeOf,
} from './two-factor-codes';
import {
  countRecoveryCodesLeft,
  deleteTwoFactor,
  findTwoFactorSecret,
  insertRecoveryCodes,
  storeTwoFactorSecret,
  takeTotpStep,
  useRecoveryCode,
} from './two-factor.queries';

/**
 * Two-factor sign-in (docs/decisions/0024-two-factor-sign-in.md; docs/rules/accounts.md, Two-factor
 * sign-in): setup from the profile, the code step of a sign-in, removal. Each setup, recovery code
 * used and removal is in the activity log and mailed to the user, in the transaction of the change.
 */
export interface TwoFactorDeps {
  db: Db;
  /** Encrypts the secrets (two-factor-codes.ts, twoFactorKeyOf). */
  key: Buffer;
  now: () => Date;
  /** Refused codes per account. */
  failures: RateLimiter;
  siteUrl: string;
}

/** Refuses at once while the account has used up its tries (a code has only a million values). */
async function checkTries(deps: TwoFactorDeps, userId: string): Promise<void> {
  const wait = await deps.failures.check(deps.db, userId);
  if (wait > 0) throw tooManyRequests(`Too many wrong codes. Please try again in ${waitText(wait)}.`);
}

async function refuse(deps: TwoFactorDeps, userId: string, error: AppError): Promise<never> {
  await deps.failures.hit(deps.db, userId);
  throw error;
}

/** Takes a current code of the app once: the step it belongs to is used up. */
async function takeTotpCode(deps: TwoFactorDeps, tx: Db, userId: string, code: string): Promise<boolean> {
  const row = await findTwoFactorSecret(tx, userId);
  const secret = row ? decryptSecret(deps.key, row.secretEncrypted) : null;
  if (!secret || !TOTP_CODE_PATTERN.test(code)) return false;
  const step = matchingStep(secret, code, deps.now());
  return step !== null && (await takeTotpStep(tx, userId, step));
}

const securityMail = (user: UserRow, deps: TwoFactorDeps, subject: string, paragraphs: string[]) => ({
  to: user.email,
  greetingName: user.firstName,
  subject,
  paragraphs: [
    ...paragraphs,
    'If this was not you, reset your password now with the link below, and contact support.',
  ],
  action: { label: 'Reset your password', url: `${deps.siteUrl}/api/forgot-password` },
});

export async function getTwoFactorStatus(
  deps: TwoFactorDeps,
  actor: Actor,
  setupRequired: boolean,
): Promise<TwoFactorStatus> {
  const enabledAt = actor.twoFactorEnabledAt;
  return {
    enabled: enabledAt !== null,
    enabledAt: enabledAt?.toISOString() ?? null,
    recoveryCodesLeft: enabledAt ? await countRecoveryCodesLeft(deps.db, actor.id) : 0,
    setupRequired,
  };
}

/**
 * Starts the setup: a new secret, shown this once as text and as a QR code; it counts once a code
 * of it is confirmed. Starting again replaces a setup never finished.
 */
export async function startTwoFactorSetup(deps: TwoFactorDeps, actor: Actor): Promise<TwoFactorSetup> {
  if (actor.twoFactorEnabledAt) throw conflict('Two-factor sign-in is already on.');
  const secret = newSecret();
  await storeTwoFactorSecret(deps.db, actor.id, encryptSecret(deps.key, secret));
  return { secret, qrCode: await qrCodeOf(secret, actor.email) };
}

/** Turns it on with a current code of the app; answers the recovery codes, shown this once. */
export async function enableTwoFactor(deps: TwoFactorDeps, actor: Actor, rawCode: string): Promise<string[]> {
  if (actor.twoFactorEnabledAt) throw conflict('Two-factor sign-in is already on.');
  if (!(await findTwoFactorSecret(deps.db, actor.id)))
    throw conflict('Start the setup first: the key was not made yet.');
  await checkTries(deps, actor.id);
  const code = normaliseCode(rawCode);
  const codes = newRecoveryCodes();
  const taken = await deps.db.transaction(async (tx) => {
    if (!(await takeTotpCode(deps, tx, actor.id, code))) return false;
    const now = deps.now();
    await setTwoFactorEnabledAt(tx, actor.id, now);
    await insertRecoveryCodes(tx, actor.id, codes.map(hashRecoveryCode));
    await recordAdminAction(tx, actor, {
      action: 'two_factor.enabled',
      target: { type: 'user', id: actor.id, label: actor.email },
      before: { twoFactor: false },
      after: { twoFactor: true },
      now,
    });
    await queueMail(tx, {
      kind: 'two_factor_enabled',
      userId: actor.id,
      content: securityMail(actor, deps, 'Two-factor sign-in is on', [
        'Two-factor sign-in was turned on for your account: signing in now asks for a code from your authenticator app after your password.',
        'Keep your recovery codes somewhere safe: each one signs you in once if you lose your phone.',
      ]),
    });
    return true;
  });
  if (!taken)
    return refuse(deps, actor.id, badRequest(WRONG_TWO_FACTOR_CODE, { code: WRONG_TWO_FACTOR_CODE }));
  return codes;
}

/** Turns it off with the password or a current code of the app. */
export async function disableTwoFactor(
  deps: TwoFactorDeps,
  actor: Actor,
  body: DisableTwoFactorBody,
): Promise<void> {
  if (!actor.twoFactorEnabledAt) throw conflict('Two-factor sign-in is not on.');
  await checkTries(deps, actor.id);
  const removed = await deps.db.transaction(async (tx) => {
    let proved = false;
    if (body.code !== undefined) {
      proved = await takeTotpCode(deps, tx, actor.id, normaliseCode(body.code));
    } else if (body.password !== undefined) {
      const [credential] = await tx
        .select()
        .from(passwordCredentials)
        .where(eq(passwordCredentials.userId, actor.id))
        .limit(1);
      proved = credential ? await verifyPassword(body.password, credential.passwordHash) : false;
    }
    if (!proved) return false;
    const now = deps.now();
    await deleteTwoFactor(tx, actor.id);
    await setTwoFactorEnabledAt(tx, actor.id, null);
    await recordAdminAction(tx, actor, {
      action: 'two_factor.disabled',
      target: { type: 'user', id: actor.id, label: actor.email },
      before: { twoFactor: true },
      after: { twoFactor: false },
      now,
    });
    await queueMail(tx, {
      kind: 'two_factor_disabled',
      userId: actor.id,
      content: securityMail(actor, deps, 'Two-factor sign-in was turned off', [
        'Two-factor sign-in was turned off for your account: signing in now asks for your password only, and your recovery codes no longer work.',
      ]),
    });
    return true;
  });
  if (!removed) {
    const field = body.code !== undefined ? 'code' : 'password';
    await refuse(deps, actor.id, badRequest(WRONG_PASSWORD_OR_CODE, { [field]: WRONG_PASSWORD_OR_CODE }));
  }
}

/**
 * The code step of a sign-in: a current code of the app (each time step once) or a recovery code
 * (each once). Answers the user to sign in; a wrong code is a 401 and counts against the account.
 */
export async function verifySignInCode(
  deps: TwoFactorDeps,
  userId: string,
  rawCode: string,
): Promise<UserRow> {
  const user = await findUserById(deps.db, userId);
  // Turned off, or the account gone, since the password step: that sign-in starts again.
  if (!user?.twoFactorEnabledAt) throw new AppError('unauthorized', SIGN_IN_CODE_EXPIRED);
  await checkTries(deps, userId);
  const code = normaliseCode(rawCode);
  if (TOTP_CODE_PATTERN.test(code)) {
    if (await takeTotpCode(deps, deps.db, userId, code)) return user;
  } else if (RECOVERY_CODE_PATTERN.test(code)) {
    const used = await deps.db.transaction(async (tx) => {
      const now = deps.now();
      if (!(await useRecoveryCode(tx, userId, hashRecoveryCode(code), now))) return false;
      const left = await countRecoveryCodesLeft(tx, userId);
      await recordAdminAction(tx, user, {
        action: 'two_factor.recovery_code_used',
        target: { type: 'user', id: user.id, label: user.email },
        before: null,
        after: { recoveryCodesLeft: String(left) },
        now,
      });
      await queueMail(tx, {
        kind: 'two_factor_recovery_code_used',
        userId: user.id,
        content: securityMail(user, deps, 'A recovery code was used to sign in', [
          `Someone, probably you, signed in to your account with one of its recovery codes. ${left === 1 ? '1 recovery code is' : `${left} recovery codes are`} left.`,
          'If you lost your phone, turn two-factor sign-in off and on again on your profile to get a new key and new recovery codes.',
        ]),
      });
      return true;
    });
    if (used) return user;
  }
  return refuse(
    deps,
    userId,
    new AppError('unauthorized', WRONG_TWO_FACTOR_CODE, { code: WRONG_TWO_FACTOR_CODE }),
  );
}
