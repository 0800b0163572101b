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

export { greetingFor, NEW_ACCOUNT_MINUTES } from './greeting';
