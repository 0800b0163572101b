import { useState } from 'react';
import { ROLE_FILTERS } from '@domain/admin';
import { capitalise, displayName } from '@domain/roles';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { formatDateTime } from '../../../lib/format';
import { useAdminUsers } from '../api/get-admin-users';
import { useListFilters } from '../use-list-filters';
import { Cell, DataTable, ExportCsvLink, ListToolbar, PagedList, rowClass, TimeCell } from './list-parts';
import { RoleSelect } from './role-select';
import { UserDetailDialog } from './user-detail-dialog';

const ROLE_FILTER_OPTIONS = ROLE_FILTERS.map((value) => ({
  value,
  label: value === 'all' ? 'All roles' : `${capitalise(value)}s`,
}));

/**
 * Users (docs/rules/screens-work.md, Admin screens): search by name or email, a role filter, the role
 * of every other user (the admin's own row cannot be changed), and each user's details, where an
 * admin takes a role away, suspends or restores them. On a phone each user is a card with the
 * role select and Details under the name.
 */
export function UsersTab({ adminId }: { adminId: string }) {
  const list = useListFilters({ role: 'all' as (typeof ROLE_FILTERS)[number] });
  const users = useAdminUsers({ search: list.search, role: list.filters.role, page: list.page });
  const [openId, setOpenId] = useState<string | null>(null);

  return (
    <div>
      <ListToolbar
        list={list}
        search={{ id: 'user-search', label: 'Search users', placeholder: 'Search by name or email' }}
        filters={[
          { key: 'role', id: 'user-role-filter', label: 'Filter by role', options: ROLE_FILTER_OPTIONS },
        ]}
      >
        <ExportCsvLink
          path="/api/admin/users.csv"
          filters={{ search: list.search, role: list.filters.role }}
          what="users"
        />
      </ListToolbar>
      <PagedList
        query={users}
        emptyText="No users found"
        what="users"
        onPageChange={list.setPage}
        isSearchPending={list.isSearchPending}
      >
        {(items) => (
          <DataTable
            caption="Users"
            minWidthClass="lg:min-w-[44rem]"
            columns={['Name', 'Granted roles', 'Joined', 'Current role', 'Actions']}
          >
            {items.map((user) => {
              const isSelf = user.id === adminId;
              const name = displayName(user);
              const { suspendedAt } = user;
              return (
                <tr key={user.id} className={rowClass}>
                  <Cell className="min-w-0">
                    <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
                      <span className="font-medium">{name}</span>
                      {isSelf ? <span className="text-xs text-muted-foreground">(you)</span> : null}
                      {suspendedAt ? (
                        <Badge
                          variant="destructive"
                          title={`Suspended since ${formatDateTime(suspendedAt) ?? ''}`}
                        >
                          Suspended
                        </Badge>
                      ) : null}
                    </span>
                    <span className="block break-all text-xs text-muted-foreground">{user.email}</span>
                  </Cell>
                  <Cell label="Granted roles">
                    <span className="inline-flex flex-wrap justify-end gap-1 lg:justify-start">
                      {user.roles.map((role) => (
                        <Badge key={role} variant="outline">
                          {capitalise(role)}
                        </Badge>
                      ))}
                    </span>
                  </Cell>
                  <TimeCell at={user.createdAt} label="Joined" />
                  <Cell label="Current role">
                    <RoleSelect user={user} isSelf={isSelf} />
                  </Cell>
                  <Cell className="pt-1 lg:pt-2.5">
                    <Button
                      variant="outline"
                      size="sm"
                      onClick={() => setOpenId(user.id)}
                      aria-label={`Details of ${name}`}
                      aria-haspopup="dialog"
                    >
                      Details
                    </Button>
                  </Cell>
                </tr>
              );
            })}
          </DataTable>
        )}
      </PagedList>
      <UserDetailDialog userId={openId} adminId={adminId} onClose={() => setOpenId(null)} />
    </div>
  );
}
