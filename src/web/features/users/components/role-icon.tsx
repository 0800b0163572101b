import { ShieldCheck, ShoppingBag, Store, Truck, type LucideProps } from 'lucide-react';
import type { Role } from '@domain/roles';

const ICONS = { buyer: ShoppingBag, seller: Store, driver: Truck, admin: ShieldCheck } as const;

export function RoleIcon({ role, ...props }: LucideProps & { role: Role }) {
  const Icon = ICONS[role];
  return <Icon aria-hidden="true" {...props} />;
}
