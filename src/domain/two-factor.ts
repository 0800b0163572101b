import { z } from 'zod';

/**
 * Two-factor sign-in with an authenticator app (TOTP, RFC 6238) and recovery codes
 * (docs/decisions/0024-two-factor-sign-in.md; docs/rules/accounts.md, Two-factor sign-in).
 */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** A code of the step before or after the current one is taken too (a clock a little off). */
export const TOTP_WINDOW_STEPS = 1;
export const RECOVERY_CODE_COUNT = 10;
/** How long the code step of a sign-in waits after the right password. */
export const PENDING_SIGN_IN_MINUTES = 5;
/** Refused codes per account before the next tries are refused (429) for the rest of the window. */
export const TWO_FACTOR_FAILURES_PER_WINDOW = 5;
export const TWO_FACTOR_FAILURE_WINDOW_MINUTES = 15;

/** A recovery code: two groups of five letters and digits (`k7p2x-9dm4q`), case and dash optional. */
export const RECOVERY_CODE_PATTERN = /^[a-z2-9]{5}-?[a-z2-9]{5}$/i;
export const TOTP_CODE_PATTERN = /^\d{6}$/;

/** What a person typed, without spaces (apps show `123 456`) and in lower case. */
export function normaliseCode(code: string): string {
  return code.replace(/\s+/g, '').toLowerCase();
}

export const TWO_FACTOR_NEEDED = 'Enter the code from your authenticator app to finish signing in.';
export const WRONG_TWO_FACTOR_CODE = 'That code is not right. Enter the current code from your app.';
export const SIGN_IN_CODE_EXPIRED = 'Your sign-in waited too long. Please sign in again.';
export const TWO_FACTOR_SETUP_REQUIRED_MESSAGE =
  'Administrators must turn on two-factor sign-in first: set it up on your profile.';
export const WRONG_PASSWORD_OR_CODE = 'The password or code is not correct.';
export const PASSWORD_OR_CODE_NEEDED = 'Enter your password or a current code';

const codeField = z.string().trim().min(1, 'Enter a code').max(40, 'That code is too long');

/** The sign-in's code step: a code of the app or a recovery code. */
export const signInCodeBodySchema = z.object({ code: codeField });

/** Turning it on: a current code of the app, proving it holds the secret. */
export const enableTwoFactorBodySchema = z.strictObject({ code: codeField });

/** Turning it off: the password, or a current code of the app. */
export const disableTwoFactorBodySchema = z
  .strictObject({
    password: z.string().min(1).max(1024).optional(),
    code: codeField.optional(),
  })
  .refine((body) => body.password !== undefined || body.code !== undefined, {
    message: PASSWORD_OR_CODE_NEEDED,
    path: ['password'],
  });
export type DisableTwoFactorBody = z.infer<typeof disableTwoFactorBodySchema>;

/** The password step's answer when a code is needed: the code step is next. */
export const twoFactorNeededSchema = z.object({ twoFactorRequired: z.literal(true), message: z.string() });

/** GET /api/auth/two-factor: whether it is on, never the secret. */
export const twoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  enabledAt: z.string().nullable(),
  recoveryCodesLeft: z.number().int(),
  /** An administrator who must turn it on before anything else (ADMIN_TWO_FACTOR=required). */
  setupRequired: z.boolean(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

/** POST /api/auth/two-factor/setup: the new secret, shown once, as text and as a QR code. */
export const twoFactorSetupSchema = z.object({
  /** Base32, as authenticator apps take it typed in. */
  secret: z.string(),
  /** The otpauth:// address as an SVG QR code, a `data:image/svg+xml` URL. */
  qrCode: z.string(),
});
export type TwoFactorSetup = z.infer<typeof twoFactorSetupSchema>;

/** POST /api/auth/two-factor/enable: the recovery codes, shown once. */
export const twoFactorEnabledSchema = z.object({ recoveryCodes: z.array(z.string()) });
