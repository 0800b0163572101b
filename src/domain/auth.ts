import { z } from 'zod';
import { selfServiceRoleSchema } from './roles';
import { visibleText } from './visible-text-schema';

export const PASSWORD_MIN_LENGTH = 8;

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'Invalid email address' }).max(254, 'Email is too long'));

/**
 * Where to go after sign-in: a relative path of this site only
 * (docs/product-rules.md, Sessions and sign-in; no open redirect).
 */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string') return '/';
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  if (/[\r\n\t]/.test(value)) return '/';
  if (value.startsWith('/api/')) return '/';
  return value;
}

const optionalIntent = z.optional(selfServiceRoleSchema).catch(undefined);
const returnToSchema = z.string().max(2000).optional();

export const signInBodySchema = z.object({
  email: emailSchema,
  password: z.string().min(1, 'Password is required').max(1024, 'Password is too long'),
  returnTo: returnToSchema,
  intent: optionalIntent,
});
export type SignInBody = z.infer<typeof signInBodySchema>;

export const signUpBodySchema = z.object({
  email: emailSchema,
  password: z
    .string()
    .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(1024, 'Password is too long'),
  firstName: visibleText(
    z.string().trim().min(1, 'First name is required').max(100, 'First name is too long'),
  ),
  lastName: visibleText(z.string().trim().min(1, 'Last name is required').max(100, 'Last name is too long')),
  returnTo: returnToSchema,
  intent: optionalIntent,
});
export type SignUpBody = z.infer<typeof signUpBodySchema>;

export const loginQuerySchema = z.object({
  returnTo: z.string().max(2000).optional(),
  intent: optionalIntent,
  mode: z.enum(['signin', 'signup']).optional().catch(undefined),
});
