import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import type { Role } from '@domain/roles';
import { toast } from '../components/ui/use-toast';
import { useAuth } from '../lib/use-auth';

interface RoleGateProps {
  /** Current roles that may see the page. */
  allow: readonly Role[];
  /** What the user is told when they may not (docs/rules/screens-work.md, Dashboards). */
  deniedMessage: string;
  children: ReactNode;
}

/**
 * Shows its children only to a user whose current role is allowed; anyone else is told why
 * and sent home. The server refuses the data anyway (docs/rules/accounts.md, Roles and permissions):
 * this is for the person.
 */
export function RoleGate({ allow, deniedMessage, children }: RoleGateProps) {
  const { user, isLoading } = useAuth();
  const [, navigate] = useLocation();
  const isAllowed = user !== null && allow.includes(user.role);
  const hasWarned = useRef(false);

  useEffect(() => {
    if (isLoading || isAllowed) return;
    if (!hasWarned.current) {
      hasWarned.current = true;
      toast({ title: 'Access denied', description: deniedMessage, variant: 'destructive' });
    }
    navigate('/', { replace: true });
  }, [isLoading, isAllowed, deniedMessage, navigate]);

  return isAllowed ? children : null;
}

/** The gates and their messages (docs/rules/screens-work.md, Dashboards). */
export const SELLER_GATE = {
  allow: ['seller', 'admin'],
  deniedMessage: 'You need to be a seller to access this page',
} as const satisfies Omit<RoleGateProps, 'children'>;

export const DRIVER_GATE = {
  allow: ['driver', 'admin'],
  deniedMessage: 'You need to be a driver to access this page',
} as const satisfies Omit<RoleGateProps, 'children'>;

export const ADMIN_GATE = {
  allow: ['admin'],
  deniedMessage: 'You must be an admin to access this page',
} as const satisfies Omit<RoleGateProps, 'children'>;
