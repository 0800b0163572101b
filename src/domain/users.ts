import { z } from 'zod';
import { roleSchema, selfServiceRoleSchema } from './roles';
import { visibleText } from './visible-text-schema';
import { isOneLine } from './visible-text';

export const idSchema = z.uuid({ message: 'Must be a valid id' });
export const idParamsSchema = z.object({ id: idSchema });

const nameSchema = (label: string) =>
  visibleText(
    z
      .string()
      .trim()
      .min(1, 'Required')
      .max(100, 'Must be at most 100 characters')
      .refine(isOneLine, `${label} must be on one line`),
  );

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
  /** Whether the address was proved by a mailed link (docs/decisions/0019-reaching-people.md, Accounts). */
  emailVerified: z.boolean(),
  /** Signs in with an email and password here, not through OpenID Connect: may change the password. */
  localAccount: z.boolean(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

/** The live cursor: the id of the newest live event, 0 when there is none. */
export const liveCursorSchema = z.number().int().nonnegative();

/**
 * GET /api/auth/user answers the user and the live cursor, the newest live event's id as the page
 * first reads its data: the page's first event stream catches up from it (docs/rules/live-updates.md,
 * Live updates). The other answers that carry the user leave it out; a page without one opens its
 * stream without catching up.
 */
export const sessionUserSchema = currentUserSchema.extend({
  liveCursor: liveCursorSchema.optional(),
  /**
   * An administrator who must turn on two-factor sign-in before anything else; until then the
   * roles leave admin out (docs/decisions/0024-two-factor-sign-in.md).
   */
  twoFactorSetupRequired: z.boolean().optional(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

/**
 * What an admin's moderation calls answer about the user they changed (docs/rules/accounts.md,
 * Moderation): the account as the user sees it, whether it is suspended, and the roles the user
 * may not take back by themself.
 */
export const moderatedUserSchema = currentUserSchema.extend({
  suspendedAt: z.string().nullable(),
  withheldRoles: z.array(roleSchema),
});
export type ModeratedUser = z.infer<typeof moderatedUserSchema>;

/** The roles an admin may take away: everyone keeps buyer. */
export const REMOVABLE_ROLES = ['seller', 'driver', 'admin'] as const;
export const removableRoleParamsSchema = z.object({
  id: idSchema,
  role: z.enum(REMOVABLE_ROLES, { error: `Role must be one of: ${REMOVABLE_ROLES.join(', ')}` }),
});

export const LAST_ADMIN_MESSAGE = 'The last admin cannot lose the admin role.';
export const OWN_ROLE_MESSAGE = 'Admins cannot change their own role';
export const OWN_SUSPENSION_MESSAGE = 'Admins cannot suspend themselves';
export const ACCOUNT_SUSPENDED_MESSAGE =
  'Your account is suspended. Contact support if you think this is a mistake.';
export const roleWithheldMessage = (role: string) =>
  `An administrator took away your ${role} role. Contact support to have it back.`;

/**
 * GET /api/users/{id}: a party's public profile. Never the email
 * (docs/rules/accounts.md, Roles and permissions).
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
 * PATCH /api/auth/user: names only (docs/rules/screens-buyer.md, Account pages). Unknown keys are refused
 * (mass assignment).
 */
export const updateNamesBodySchema = z.strictObject({
  firstName: nameSchema('First name'),
  lastName: nameSchema('Last name'),
});
export type UpdateNamesBody = z.infer<typeof updateNamesBodySchema>;

/** PATCH /api/users/{id}/role and PATCH /api/admin/users/{id}/role. */
export const roleBodySchema = z.strictObject({ role: roleSchema });

/** POST /api/auth/user/roles: become a seller or a driver. */
export const becomeRoleBodySchema = z.strictObject({ role: selfServiceRoleSchema });

export { greetingFor, NEW_ACCOUNT_MINUTES } from './greeting';
