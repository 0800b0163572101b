import { z } from 'zod';
import { selfServiceRoleSchema } from './roles';
import { visibleText } from './visible-text-schema';
import { isOneLine } from './visible-text';

export const PASSWORD_MIN_LENGTH = 8;

/**
 * An email address as the request schemas describe it in JSON Schema: the address z.email() accepts,
 * at most 254 characters. A pipe's JSON Schema shows only its input (any string), so the schemas that
 * trim before checking carry this rule as metadata (docs/ARCHITECTURE.md, Requests and errors).
 */
export const EMAIL_JSON_SCHEMA = { format: 'email', pattern: z.regexes.email.source, maxLength: 254 };

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'Invalid email address' }).max(254, 'Email is too long'))
  .meta(EMAIL_JSON_SCHEMA);

/** C0 controls and DEL: a returnTo holding one goes to `/`. */
// eslint-disable-next-line no-control-regex -- control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;
/** What a Location header may not carry as it is: anything outside printable ASCII, and the space. */
const NOT_PLAIN = /[^\u0021-\u007e]/gu;

/**
 * Where to go after sign-in: a relative path of this site only
 * (docs/rules/accounts.md, Sessions and sign-in; no open redirect). A character outside printable
 * ASCII is percent-encoded as UTF-8 (the answer goes into a Location header, which takes Latin-1
 * only); a control character, or text that is not whole Unicode (a lone surrogate), goes to `/`.
 */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string') return '/';
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  if (CONTROL.test(value) || value.startsWith('/api/')) return '/';
  try {
    return value.replace(NOT_PLAIN, (character) => encodeURIComponent(character));
  } catch {
    // URIError: a lone surrogate, which no URL can carry.
    return '/';
  }
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
    z
      .string()
      .trim()
      .min(1, 'First name is required')
      .max(100, 'First name is too long')
      .refine(isOneLine, 'First name must be on one line'),
  ),
  lastName: visibleText(
    z
      .string()
      .trim()
      .min(1, 'Last name is required')
      .max(100, 'Last name is too long')
      .refine(isOneLine, 'Last name must be on one line'),
  ),
  returnTo: returnToSchema,
  intent: optionalIntent,
});
export type SignUpBody = z.infer<typeof signUpBodySchema>;

export const loginQuerySchema = z.object({
  returnTo: z.string().max(2000).optional(),
  intent: optionalIntent,
  mode: z.enum(['signin', 'signup']).optional().catch(undefined),
});
