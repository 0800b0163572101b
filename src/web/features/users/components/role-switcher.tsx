import { ChevronDown } from 'lucide-react';
import { capitalise, sortRoles } from '@domain/roles';
import type { CurrentUser } from '@domain/users';
import { Button } from '../../../components/ui/button';
import { deferredControl } from '../../../components/deferred-control';
import { cn } from '../../../lib/utils';
import { useUpdateRole } from '../api/update-role';
import { RoleIcon } from './role-icon';

/** The dropdown (Radix) is not part of the first load (docs/decisions/0014-first-load.md). */
const RoleSwitcherMenu = deferredControl(async () => (await import('./role-switcher-menu')).RoleSwitcherMenu);

/**
 * A static label with one granted role, a dropdown of the granted roles with several. Choosing
 * one makes it the current role on the server (docs/rules/screens-buyer.md, Routes and headers).
 */
export function RoleSwitcher({ user, className }: { user: CurrentUser; className?: string }) {
  const roles = sortRoles(user.roles.includes(user.role) ? user.roles : [...user.roles, user.role]);
  const updateRole = useUpdateRole(user.id);

  if (roles.length <= 1) {
    return (
      <span
        className={cn(
          'inline-flex h-9 items-center gap-2 rounded-md border border-transparent px-3 text-sm font-medium',
          className,
        )}
      >
        <RoleIcon role={user.role} className="size-4" />
        <span className="sr-only">Role: </span>
        {capitalise(user.role)}
      </span>
    );
  }

  return (
    <RoleSwitcherMenu
      role={user.role}
      roles={roles}
      onChoose={(role) => updateRole.mutate(role)}
      trigger={
        <Button
          variant="outline"
          size="sm"
          aria-label={`Current role: ${capitalise(user.role)}. Switch role`}
          disabled={updateRole.isPending}
          className={className}
        >
          <RoleIcon role={user.role} />
          {capitalise(user.role)}
          <ChevronDown aria-hidden="true" className="opacity-60" />
        </Button>
      }
    />
  );
}
