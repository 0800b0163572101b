import { JOB_LABELS } from '@domain/jobs';
import { formatDateTime } from '../../../lib/format';
import { useAdminJobs } from '../api/get-admin-jobs';
import { Cell, DataTable, ListState, rowClass, TimeCell } from './list-parts';

const labelOf = (name: string) => JOB_LABELS[name] ?? name;
const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * Jobs (docs/decisions/0021-durable-jobs.md): the work the server finishes on its own, one run at a
 * time across instances: how many runs wait or run, what failed in the last day and why, and the
 * mail and push messages still to send.
 */
export function JobsTab() {
  const jobs = useAdminJobs();
  const data = jobs.data;
  return (
    <ListState query={jobs} isEmpty={false} emptyText="" what="jobs">
      {data ? (
        <div className="flex flex-col gap-6">
          <p className="text-sm">
            Waiting to be sent: {plural(data.outbox.mail, 'mail message', 'mail messages')} and{' '}
            {plural(data.outbox.push, 'push notification', 'push notifications')}.
          </p>
          {data.queues.length === 0 ? (
            <p className="py-4 text-center text-sm text-muted-foreground">
              The job queue has not started yet: it starts once the server is up.
            </p>
          ) : (
            <DataTable
              caption="Jobs"
              minWidthClass="lg:min-w-[48rem]"
              columns={['Job', 'Waiting', 'Running', 'Failed (24 h)', 'Last finished']}
            >
              {data.queues.map((queue) => (
                <tr key={queue.name} className={rowClass}>
                  <Cell className="font-medium">{labelOf(queue.name)}</Cell>
                  <Cell label="Waiting">{queue.waiting}</Cell>
                  <Cell label="Running">{queue.running}</Cell>
                  <Cell
                    label="Failed (24 h)"
                    className={queue.failedLastDay > 0 ? 'text-destructive' : undefined}
                  >
                    {queue.failedLastDay}
                  </Cell>
                  <Cell label="Last finished" className="whitespace-nowrap text-muted-foreground">
                    {queue.lastCompletedAt ? formatDateTime(queue.lastCompletedAt) : '—'}
                  </Cell>
                </tr>
              ))}
            </DataTable>
          )}
          <section className="flex flex-col gap-2" aria-labelledby="job-failures-heading">
            <h3 id="job-failures-heading" className="text-sm font-semibold">
              Failures in the last 24 hours
            </h3>
            {data.failures.length === 0 ? (
              <p className="text-sm text-muted-foreground">None.</p>
            ) : (
              <DataTable
                caption="Failures in the last 24 hours, newest first"
                columns={['When', 'Job', 'What went wrong']}
              >
                {data.failures.map((failure) => (
                  <tr key={failure.id} className={rowClass}>
                    <TimeCell at={failure.failedAt} label="When" />
                    <Cell label="Job">{labelOf(failure.name)}</Cell>
                    <Cell label="What went wrong" className="break-words text-xs">
                      {failure.message}
                    </Cell>
                  </tr>
                ))}
              </DataTable>
            )}
          </section>
        </div>
      ) : null}
    </ListState>
  );
}
