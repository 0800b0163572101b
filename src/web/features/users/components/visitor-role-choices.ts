import type { SelfServiceRole } from '@domain/roles';

export interface VisitorRoleChoice {
  role: 'buyer' | SelfServiceRole;
  label: string;
  description: string;
}

/**
 * What a visitor's role switcher offers (docs/rules/screens-buyer.md, Routes and headers): buyer, seller
 * and driver, each a way in. A visitor has no account to switch, so a choice signs in (or signs up)
 * in that role.
 */
export const VISITOR_ROLE_CHOICES: readonly VisitorRoleChoice[] = [
  { role: 'buyer', label: 'Buyer', description: 'Order from local sellers' },
  { role: 'seller', label: 'Seller', description: 'Sell your products' },
  { role: 'driver', label: 'Driver', description: 'Deliver and earn' },
];
