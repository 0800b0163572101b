import * as z from 'zod/mini';

/**
 * The four roles; buyer is the default and always granted
 * (docs/rules/accounts.md, Roles and permissions).
 */
export const ROLES = ['buyer', 'seller', 'driver', 'admin'] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

/**
 * Roles a user can grant themselves (docs/rules/accounts.md, Roles and permissions: seller and
 * driver are self-service).
 */
export const SELF_SERVICE_ROLES = ['seller', 'driver'] as const;
export const selfServiceRoleSchema = z.enum(SELF_SERVICE_ROLES);
export type SelfServiceRole = z.infer<typeof selfServiceRoleSchema>;

export function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * "first last" when both exist, otherwise the capitalised role word
 * (docs/rules/screens-shared.md, Client behaviour).
 */
export function displayName(user: {
  firstName?: string | null;
  lastName?: string | null;
  role: Role;
}): string {
  const first = user.firstName?.trim();
  const last = user.lastName?.trim();
  if (first && last) return `${first} ${last}`;
  return capitalise(user.role);
}

/**
 * Links of the signed-in header by role (docs/rules/screens-buyer.md, Routes and headers). Admin sees the
 * links of all four roles.
 */
export interface RoleLink {
  href: string;
  label: string;
}

export function headerLinksFor(role: Role): RoleLink[] {
  const links: RoleLink[] = [];
  if (role === 'buyer' || role === 'admin') links.push({ href: '/buyer/orders', label: 'My Orders' });
  if (role === 'seller' || role === 'admin')
    links.push({ href: '/seller/dashboard', label: 'Seller Dashboard' });
  if (role === 'driver' || role === 'admin')
    links.push({ href: '/driver/dashboard', label: 'Driver Dashboard' });
  if (role === 'admin') links.push({ href: '/admin', label: 'Admin Dashboard' });
  return links;
}

/** Orders the granted roles the way the switcher lists them. */
export function sortRoles(roles: readonly Role[]): Role[] {
  return ROLES.filter((r) => roles.includes(r));
}
