import { displayName, type Role } from '@domain/roles';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { toast } from '../../../components/ui/use-toast';
import { toastMutationError } from '../../../lib/mutation-errors';
import { cn } from '../../../lib/utils';
import { useUpdateUserRole } from '../api/update-user-role';
import { ROLE_OPTIONS } from '../role-labels';

/**
 * The role select of a user (docs/product-rules.md, Admin screens): choosing a role grants it and
 * makes it their current one. Disabled on the admin's own row; a refusal toasts the server's reason.
 */
export function RoleSelect({
  user,
  isSelf,
  testId,
  className,
}: {
  user: { id: string; role: Role; firstName: string | null; lastName: string | null };
  isSelf: boolean;
  testId: string;
  className?: string;
}) {
  const name = displayName(user);
  const update = useUpdateUserRole({
    onUpdated: (updated) =>
      toast({ title: 'Role updated', description: `${displayName(updated)} is now a ${updated.role}.` }),
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
        aria-label={`Role of ${name}`}
        title={isSelf ? 'You cannot change your own role' : undefined}
        data-testid={testId}
      >
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {ROLE_OPTIONS.map((option) => (
          <SelectItem key={option.value} value={option.value} data-testid={`option-role-${option.value}`}>
            {option.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
