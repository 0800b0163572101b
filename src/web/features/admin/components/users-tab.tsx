import { ROLE_FILTERS } from '@domain/admin';
import { capitalise, displayName, type Role } from '@domain/roles';
import { Badge } from '../../../components/ui/badge';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { toast } from '../../../components/ui/use-toast';
import { toastMutationError } from '../../../lib/mutation-errors';
import { useAdminUsers } from '../api/get-admin-users';
import { useUpdateUserRole } from '../api/update-user-role';
import { ROLE_OPTIONS } from '../role-labels';
import { useListFilters } from '../use-list-filters';
import { DataTable, ListToolbar, PagedList, tdClass, TimeCell } from './list-parts';

const ROLE_FILTER_OPTIONS = ROLE_FILTERS.map((value) => ({
  value,
  label: value === 'all' ? 'All roles' : `${capitalise(value)}s`,
}));

/**
 * Users (docs/product-rules.md, Admin screens): search by name or email, a role filter, and the role
 * of every other user; the admin's own row cannot be changed.
 */
export function UsersTab({ adminId }: { adminId: string }) {
  const list = useListFilters({ role: 'all' as (typeof ROLE_FILTERS)[number] });
  const users = useAdminUsers({ search: list.search, role: list.filters.role, page: list.page });
  const update = useUpdateUserRole({
    onUpdated: (user) =>
      toast({ title: 'Role updated', description: `${displayName(user)} is now a ${user.role}.` }),
    onFailed: (error) => toastMutationError(error, 'Failed to update user role'),
  });

  return (
    <div>
      <ListToolbar
        list={list}
        search={{ id: 'user-search', label: 'Search users', placeholder: 'Search by name or email' }}
        filters={[
          { key: 'role', id: 'user-role-filter', label: 'Filter by role', options: ROLE_FILTER_OPTIONS },
        ]}
      />
      <PagedList query={users} emptyText="No users found" what="users" onPageChange={list.setPage}>
        {(items) => (
          <DataTable
            caption="Users"
            minWidthClass="min-w-[54rem]"
            columns={['Name', 'Email', 'Granted roles', 'Joined', 'Role']}
          >
            {items.map((user) => {
              const isSelf = user.id === adminId;
              const name = displayName(user);
              return (
                <tr key={user.id} data-testid={`row-user-${user.id}`}>
                  <td className={tdClass}>
                    <span className="font-medium">{name}</span>
                    {isSelf ? <span className="ml-1 text-xs text-muted-foreground">(you)</span> : null}
                  </td>
                  <td className={`${tdClass} whitespace-nowrap`}>{user.email}</td>
                  <td className={tdClass}>
                    <div className="flex flex-wrap gap-1">
                      {user.roles.map((role) => (
                        <Badge key={role} variant="outline">
                          {capitalise(role)}
                        </Badge>
                      ))}
                    </div>
                  </td>
                  <TimeCell at={user.createdAt} />
                  <td className={tdClass}>
                    <Select
                      value={user.role}
                      disabled={isSelf || update.isPending}
                      onValueChange={(role) => update.mutate({ userId: user.id, role: role as Role })}
                    >
                      <SelectTrigger
                        className="w-32"
                        aria-label={`Role of ${name}`}
                        title={isSelf ? 'You cannot change your own role' : undefined}
                        data-testid={`select-role-${user.id}`}
                      >
                        <SelectValue />
                      </SelectTrigger>
                      <SelectContent>
                        {ROLE_OPTIONS.map((option) => (
                          <SelectItem
                            key={option.value}
                            value={option.value}
                            data-testid={`option-role-${option.value}`}
                          >
                            {option.label}
                          </SelectItem>
                        ))}
                      </SelectContent>
                    </Select>
                  </td>
                </tr>
              );
            })}
          </DataTable>
        )}
      </PagedList>
    </div>
  );
}
