import { ADMIN_ACTION_LABELS, rateToPercent, type AdminActivity, type AuditState } from '@domain/admin';
import { STATUS_BADGE, type OrderStatus } from '@domain/order-status';
import { capitalise } from '@domain/roles';
import { formatPrice } from '../../../lib/format';
import { useAdminActivity } from '../api/get-admin-activity';
import { COMMISSION_FIELDS } from '../commission-fields';
import { useListFilters } from '../use-list-filters';
import { Cell, DataTable, PagedList, rowClass, TimeCell } from './list-parts';

const VALUE_LABELS: Record<string, string> = {
  isVerified: 'Verified',
  role: 'Role',
  roles: 'Granted roles',
  name: 'Name',
  status: 'Status',
  products: 'Products renamed',
  hidden: 'Hidden',
  suspended: 'Suspended',
};

const commissionField = (key: string) => COMMISSION_FIELDS.find((field) => field.name === key);

/** "Base commission rate", without the form's unit: the values carry theirs. */
function labelOf(key: string): string {
  const label = commissionField(key)?.label.replace(/ \((%|\$)\)$/, '');
  return label ?? VALUE_LABELS[key] ?? key;
}

const isStatus = (value: string): value is OrderStatus => value in STATUS_BADGE;

/** A value as people read it: roles and statuses by their labels, yes or no, text as it is. */
function textOf(key: string, value: AuditState[string] | undefined): string {
  if (value === undefined) return '—';
  if (Array.isArray(value)) return value.map(capitalise).join(', ');
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (key === 'role') return capitalise(value);
  const kind = commissionField(key)?.kind;
  if (kind === 'rate') return `${rateToPercent(value)}%`;
  if (kind === 'amount') return formatPrice(value);
  if (key === 'status' && isStatus(value)) return STATUS_BADGE[value];
  return value;
}

/** What changed: each value that differs, "before → after"; a creation or a deletion shows its one side. */
export function changesOf(entry: Pick<AdminActivity, 'before' | 'after'>): string[] {
  const keys = [...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})])];
  const lines: string[] = [];
  for (const key of keys) {
    const before = entry.before?.[key];
    const after = entry.after?.[key];
    if (entry.before === null) lines.push(`${labelOf(key)}: ${textOf(key, after)}`);
    else if (entry.after === null) lines.push(`${labelOf(key)}: ${textOf(key, before)}`);
    else if (key === 'products') lines.push(`${labelOf(key)}: ${textOf(key, after)}`);
    else if (JSON.stringify(before) !== JSON.stringify(after))
      lines.push(`${labelOf(key)}: ${textOf(key, before)} → ${textOf(key, after)}`);
  }
  return lines;
}

/**
 * Activity: the audit trail of admin actions, newest first (docs/rules/known-differences.md, Admin): who did
 * what to which row, what it was before and after, and when.
 */
export function ActivityTab() {
  const list = useListFilters({});
  const activity = useAdminActivity({ page: list.page });
  return (
    <PagedList
      query={activity}
      emptyText="No admin actions yet"
      what="activity"
      onPageChange={list.setPage}
      isSearchPending={list.isSearchPending}
    >
      {(items) => (
        <DataTable
          caption="Admin activity"
          minWidthClass="lg:min-w-[52rem]"
          columns={['When', 'Admin', 'Action', 'On', 'Change']}
        >
          {items.map((entry) => (
            <tr key={entry.id} className={rowClass}>
              <TimeCell at={entry.createdAt} label="When" />
              <Cell label="Admin">
                <span className="block font-medium">{entry.actorName}</span>
                <span className="block break-all text-xs text-muted-foreground">{entry.actorEmail}</span>
              </Cell>
              <Cell label="Action">{ADMIN_ACTION_LABELS[entry.action]}</Cell>
              <Cell label="On" className="break-all">
                {entry.targetLabel}
              </Cell>
              <Cell label="Change">
                <ul className="flex flex-col gap-0.5 text-xs">
                  {changesOf(entry).map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              </Cell>
            </tr>
          ))}
        </DataTable>
      )}
    </PagedList>
  );
}
