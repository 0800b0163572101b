import type { Role } from '@domain/roles';
import { capitalise, roleSchema } from '@domain/roles';
import type { DeferredControlProps } from '../../../components/deferred-control';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { RoleIcon } from './role-icon';

/** The dropdown of the granted roles (role-switcher.tsx), loaded after the first render. */
export function RoleSwitcherMenu({
  trigger,
  defaultOpen,
  role,
  roles,
  onChoose,
}: DeferredControlProps & { role: Role; roles: Role[]; onChoose: (role: Role) => void }) {
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="start">
        <DropdownMenuLabel>Switch role</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuRadioGroup
          value={role}
          onValueChange={(value) => {
            const parsed = roleSchema.safeParse(value);
            if (parsed.success && parsed.data !== role) onChoose(parsed.data);
          }}
        >
          {roles.map((each) => (
            <DropdownMenuRadioItem key={each} value={each}>
              <RoleIcon role={each} />
              {capitalise(each)}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
