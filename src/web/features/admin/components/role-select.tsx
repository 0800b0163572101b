import { useState } from 'react';
import { capitalise, displayName, sortRoles, type Role } from '@domain/roles';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { toast } from '../../../components/ui/use-toast';
import { toastMutationError } from '../../../lib/mutation-errors';
import { cn } from '../../../lib/utils';
import { useUpdateUserRole } from '../api/update-user-role';
import { ROLE_OPTIONS } from '../role-labels';

/**
 * What a role change did, in words: the role the user now works in, and the roles they still hold
 * (a user holds several; choosing one takes none away: docs/rules/accounts.md, Roles and permissions).
 */
export function roleChangedText(user: {
  role: Role;
  roles: readonly Role[];
  firstName: string | null;
  lastName: string | null;
}): string {
  const kept = sortRoles(user.roles.filter((role) => role !== user.role && role !== 'buyer')).map(capitalise);
  const now = `${displayName(user)}'s current role is now ${capitalise(user.role)}.`;
  if (kept.length === 0) return now;
  const list = kept.length === 1 ? kept[0] : `${kept.slice(0, -1).join(', ')} and ${kept.at(-1) ?? ''}`;
  return `${now} They still hold ${list}: take a role away in Details.`;
}

/**
 * The current-role select of a user (docs/rules/screens-work.md, Admin screens): choosing a role grants
 * it if needed and makes it the one they work in now; the other roles they hold stay, and the toast
 * names them. Disabled on the admin's own row; a refusal toasts the server's reason.
 */
export function RoleSelect({
  user,
  isSelf,
  className,
}: {
  user: { id: string; role: Role; firstName: string | null; lastName: string | null };
  isSelf: boolean;
  className?: string;
}) {
  const name = displayName(user);
  // One select per row of the users list: their options are drawn once the admin comes near one
  // (hover, focus, press), not while the list hydrates. Radix draws a closed select's options
  // into a detached fragment right after mounting, one synchronous render more per row, and the
  // trigger's text waited for it; the trigger now says the role from the start
  // (docs/decisions/0014-first-load.md, Dashboard parts that wait).
  const [hasOptions, setHasOptions] = useState(false);
  const drawOptions = () => setHasOptions(true);
  const update = useUpdateUserRole({
    onUpdated: (updated) => toast({ title: 'Current role changed', description: roleChangedText(updated) }),
    onFailed: (error) =>
      toastMutationError(error, 'Failed to update user role', { appendServerMessage: true }),
  });
  return (
    <Select
      value={user.role}
      disabled={isSelf || update.isPending}
      onValueChange={(role) => update.mutate({ userId: user.id, role: role as Role })}
    >
      <SelectTrigger
        className={cn('w-32', className)}
        aria-label={`Current role of ${name}`}
        title={isSelf ? 'You cannot change your own role' : undefined}
        onPointerEnter={drawOptions}
        onPointerDown={drawOptions}
        onFocus={drawOptions}
      >
        <SelectValue>{ROLE_OPTIONS.find((option) => option.value === user.role)?.label}</SelectValue>
      </SelectTrigger>
      {hasOptions ? (
        <SelectContent>
          {ROLE_OPTIONS.map((option) => (
            <SelectItem key={option.value} value={option.value}>
              {option.label}
            </SelectItem>
          ))}
        </SelectContent>
      ) : null}
    </Select>
  );
}
