import type { AdminMail } from '@domain/mail';
import { formatDateTime } from '../../../lib/format';
import { useAdminMail } from '../api/get-admin-mail';
import { useListFilters } from '../use-list-filters';
import { Cell, DataTable, PagedList, rowClass, TimeCell } from './list-parts';

const STATUS_LABELS: Record<AdminMail['status'], string> = {
  queued: 'Queued',
  sent: 'Sent',
  failed: 'Failed',
  dropped: 'Refused',
};

/**
 * Mail (docs/decisions/0019-reaching-people.md, Mail): every mail the marketplace sent or is
 * sending, newest first, with its state and its text, so the admin of an install without SMTP,
 * where mail is only logged, can still read what went out.
 */
export function MailTab() {
  const list = useListFilters({});
  const mail = useAdminMail({ page: list.page });
  return (
    <PagedList
      query={mail}
      emptyText="No mail so far"
      what="mail"
      onPageChange={list.setPage}
      isSearchPending={list.isSearchPending}
    >
      {(items) => (
        <DataTable
          caption="Mail, newest first"
          minWidthClass="lg:min-w-[52rem]"
          columns={['Created', 'To', 'Subject', 'Status', 'Sent']}
        >
          {items.map((item) => (
            <tr key={item.id} className={rowClass}>
              <TimeCell at={item.createdAt} label="Created" />
              <Cell label="To" className="break-all">
                {item.to}
              </Cell>
              <Cell label="Subject">
                <span className="block font-medium">{item.subject}</span>
                <span className="block text-xs text-muted-foreground">{item.kind}</span>
                <details className="mt-1 text-xs">
                  <summary className="cursor-pointer text-primary">Show text</summary>
                  <pre className="mt-1 max-w-prose whitespace-pre-wrap break-words font-sans">
                    {item.text}
                  </pre>
                </details>
              </Cell>
              <Cell label="Status">
                <span className="block">{STATUS_LABELS[item.status]}</span>
                <span className="block text-xs text-muted-foreground">
                  {item.attempts === 1 ? '1 attempt' : `${item.attempts} attempts`}
                </span>
                {item.lastError ? (
                  <span className="block break-all text-xs text-destructive">{item.lastError}</span>
                ) : null}
              </Cell>
              <Cell label="Sent" className="whitespace-nowrap text-muted-foreground">
                {item.status === 'sent' ? formatDateTime(item.finishedAt) : '—'}
              </Cell>
            </tr>
          ))}
        </DataTable>
      )}
    </PagedList>
  );
}
