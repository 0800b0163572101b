import { Store, Truck } from 'lucide-react';
import { capitalise, SELF_SERVICE_ROLES, sortRoles, type SelfServiceRole } from '@domain/roles';
import type { CurrentUser } from '@domain/users';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { toast } from '../../../components/ui/use-toast';
import { toastMutationError } from '../../../lib/mutation-errors';
import { useBecomeRole } from '../api/become-role';
import { RoleIcon } from './role-icon';

const BECOME: Record<SelfServiceRole, { label: string; description: string; icon: typeof Store }> = {
  seller: {
    label: 'Become a seller',
    description: 'List your products and sell to buyers nearby.',
    icon: Store,
  },
  driver: {
    label: 'Become a driver',
    description:
      'Deliver orders and earn money. An administrator verifies drivers before their first delivery.',
    icon: Truck,
  },
};

/**
 * The profile's Your Roles (docs/rules/screens-buyer.md, Account pages): the roles granted, the current
 * one marked, and a button for each role the user may still take on themselves.
 */
export function RolesCard({ user }: { user: CurrentUser }) {
  const becomeRole = useBecomeRole();
  const granted = sortRoles(user.roles);
  const available = SELF_SERVICE_ROLES.filter((role) => !user.roles.includes(role));

  const become = (role: SelfServiceRole) =>
    becomeRole.mutate(role, {
      onSuccess: () =>
        toast({ title: `You are now a ${role}`, description: 'Switch roles any time from the header.' }),
      onError: (error) => toastMutationError(error, 'Failed to update role', { preferServerMessage: true }),
    });

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Your Roles</CardTitle>
        <CardDescription>Switch between the roles you have from the header.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <ul className="flex flex-wrap gap-2" aria-label="Granted roles">
          {granted.map((role) => (
            <li key={role}>
              <Badge variant={role === user.role ? 'default' : 'secondary'}>
                <RoleIcon role={role} />
                {capitalise(role)}
                {role === user.role ? <span className="sr-only"> (current)</span> : null}
              </Badge>
            </li>
          ))}
        </ul>
        {available.map((role) => {
          const option = BECOME[role];
          return (
            <div key={role} className="flex flex-col gap-2 rounded-lg border p-4">
              <p className="text-sm text-muted-foreground">{option.description}</p>
              <Button variant="outline" onClick={() => become(role)} disabled={becomeRole.isPending}>
                <option.icon aria-hidden="true" />
                {option.label}
              </Button>
            </div>
          );
        })}
      </CardContent>
    </Card>
  );
}
