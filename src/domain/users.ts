import { z } from 'zod';
import { roleSchema, selfServiceRoleSchema } from './roles';

export const idSchema = z.uuid({ message: 'Must be a valid id' });
export const idParamsSchema = z.object({ id: idSchema });

const nameSchema = z.string().trim().min(1, 'Required').max(100, 'Must be at most 100 characters');

/** GET /api/auth/user: the signed-in user's own record. */
export const currentUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  role: roleSchema,
  roles: z.array(roleSchema),
  isVerified: z.boolean(),
  vehicleImageUrl: z.string().nullable(),
  licenseImageUrl: z.string().nullable(),
  trailerImageUrl: z.string().nullable(),
  stripeOnboardingComplete: z.boolean(),
  createdAt: z.string(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

/**
 * GET /api/users/{id}: a party's public profile. Never the email
 * (docs/product-rules.md, Roles and permissions).
 */
export const publicUserSchema = z.object({
  id: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  role: roleSchema,
  isVerified: z.boolean(),
  createdAt: z.string(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

/**
 * PATCH /api/auth/user: names only (docs/product-rules.md, Account pages). Unknown keys are refused
 * (mass assignment).
 */
export const updateNamesBodySchema = z.strictObject({
  firstName: nameSchema,
  lastName: nameSchema,
});
export type UpdateNamesBody = z.infer<typeof updateNamesBodySchema>;

/** PATCH /api/users/{id}/role and PATCH /api/admin/users/{id}/role. */
export const roleBodySchema = z.strictObject({ role: roleSchema });

/** POST /api/auth/user/roles: become a seller or a driver. */
export const becomeRoleBodySchema = z.strictObject({ role: selfServiceRoleSchema });

/**
 * An account younger than this is greeted "Welcome", an older one "Welcome back"
 * (docs/product-rules.md, Catalog screens): a person who has just signed up has not come back yet.
 */
export const NEW_ACCOUNT_MINUTES = 15;

/** "Welcome" for an account created in the last 15 minutes (or in the future: a clock skew), else "Welcome back". */
export function greetingFor(user: { createdAt: string }, now: Date): 'Welcome' | 'Welcome back' {
  const created = new Date(user.createdAt).getTime();
  if (Number.isNaN(created)) return 'Welcome back';
  return now.getTime() - created < NEW_ACCOUNT_MINUTES * 60_000 ? 'Welcome' : 'Welcome back';
}
