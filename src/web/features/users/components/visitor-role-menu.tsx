import type { DeferredControlProps } from '../../../components/deferred-control';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { VISITOR_ROLE_CHOICES, type VisitorRoleChoice } from './visitor-role-choices';
import { RoleIcon } from './role-icon';

/** The visitor's dropdown (visitor-role-switcher.tsx), loaded after the first render. */
export function VisitorRoleMenu({
  trigger,
  defaultOpen,
  onChoose,
}: DeferredControlProps & { onChoose: (choice: VisitorRoleChoice) => void }) {
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64">
        <DropdownMenuLabel>Sign in as</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {VISITOR_ROLE_CHOICES.map((choice) => (
          <DropdownMenuItem key={choice.role} onSelect={() => onChoose(choice)} className="items-start">
            <RoleIcon role={choice.role} className="mt-0.5" />
            <span className="flex flex-col">
              <span className="font-medium">{choice.label}</span>
              <span className="text-xs text-muted-foreground">{choice.description}</span>
            </span>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
