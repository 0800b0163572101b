import { ChevronDown } from 'lucide-react';
import { capitalise, roleSchema, sortRoles } from '@domain/roles';
import type { CurrentUser } from '@domain/users';
import { Button } from '../../../components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { cn } from '../../../lib/utils';
import { useUpdateRole } from '../api/update-role';
import { RoleIcon } from './role-icon';

/**
 * A static label with one granted role, a dropdown of the granted roles with several. Choosing
 * one makes it the current role on the server (docs/product-rules.md, Routes and headers).
 */
export function RoleSwitcher({ user, className }: { user: CurrentUser; className?: string }) {
  const roles = sortRoles(user.roles.includes(user.role) ? user.roles : [...user.roles, user.role]);
  const updateRole = useUpdateRole(user.id);

  if (roles.length <= 1) {
    return (
      <span
        data-testid="role-switcher"
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
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="outline"
          size="sm"
          data-testid="role-switcher"
          aria-label={`Current role: ${capitalise(user.role)}. Switch role`}
          disabled={updateRole.isPending}
          className={className}
        >
          <RoleIcon role={user.role} />
          {capitalise(user.role)}
          <ChevronDown aria-hidden="true" className="opacity-60" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start">
        <DropdownMenuLabel>Switch role</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuRadioGroup
          value={user.role}
          onValueChange={(value) => {
            const parsed = roleSchema.safeParse(value);
            if (parsed.success && parsed.data !== user.role) updateRole.mutate(parsed.data);
          }}
        >
          {roles.map((role) => (
            <DropdownMenuRadioItem key={role} value={role} data-testid={`role-option-${role}`}>
              <RoleIcon role={role} />
              {capitalise(role)}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
