import { z } from 'zod';
import { PASSWORD_MIN_LENGTH, emailSchema } from './auth';

/**
 * Local accounts: password reset, email verification and change of password
 * (docs/decisions/0019-reaching-people.md, Accounts; docs/rules/accounts.md, Sessions and sign-in).
 */
export const RESET_LINK_MINUTES = 30;
export const VERIFY_LINK_HOURS = 24;

export const ACCOUNT_TOKEN_PURPOSES = ['reset', 'verify'] as const;
export type AccountTokenPurpose = (typeof ACCOUNT_TOKEN_PURPOSES)[number];

/** The same answer whether an account exists for the address or not. */
export const SIGN_UP_SENT = 'Check your email to finish creating your account.';
export const RESET_SENT = 'If an account exists for that address, we have sent a link to reset its password.';
export const VERIFICATION_SENT =
  'If that address has an account waiting for confirmation, we have sent it a new link.';
export const CONFIRM_EMAIL_FIRST = 'Confirm your email address first: we sent you a link.';
export const LINK_EXPIRED = 'This link has expired or was already used.';
export const PASSWORD_CHANGED = 'Your password was changed.';
export const WRONG_CURRENT_PASSWORD = 'The current password is not correct.';

const newPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(1024, 'Password is too long');

/** A raw token as mailed: 32 random bytes in base64url. */
export const ACCOUNT_TOKEN_PATTERN = /^[A-Za-z0-9_-]{20,100}$/;
const tokenSchema = z.string().trim().regex(ACCOUNT_TOKEN_PATTERN, 'This link is not valid');

export const emailOnlyBodySchema = z.object({ email: emailSchema });

export const resetPasswordBodySchema = z.object({ token: tokenSchema, password: newPassword });

export const tokenQuerySchema = z.object({ token: z.string().max(200, 'This link is not valid') });

/** The verification link also names where to land once signed in (a relative path of this site). */
export const verifyEmailQuerySchema = tokenQuerySchema.extend({ returnTo: z.string().max(2000).optional() });

export const changePasswordBodySchema = z.object({
  currentPassword: z.string().min(1, 'Current password is required').max(1024, 'Password is too long'),
  newPassword,
});
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

export const accountMessageSchema = z.object({ message: z.string() });
