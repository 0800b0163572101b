import { sql } from 'drizzle-orm';
import type { AdminJobFailure, AdminJobQueue } from '../../../domain/jobs';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows-of';
import { JOB_SCHEMA, RUN_LOST_MESSAGE } from '../../platform/job-queue';

const schema = sql.raw(JOB_SCHEMA);

/** True once some instance has started the job queue and created its tables. */
export async function hasJobTables(db: Db): Promise<boolean> {
  const [row] = await rowsOf<{ present: boolean }>(
    db,
    sql`select to_regclass(${`${JOB_SCHEMA}.archive`}) is not null as present`,
  );
  return row?.present ?? false;
}

/** Each queue with its waiting and running runs, its failures of the last day and its last success. */
export async function jobQueueStates(db: Db, since: Date): Promise<AdminJobQueue[]> {
  const rows = await rowsOf<{
    name: string;
    waiting: string;
    running: string;
    failed: string;
    last_completed: string | null;
  }>(
    db,
    sql`with runs as (
          select name, state, completed_on from ${schema}.job
          union all
          select name, state, completed_on from ${schema}.archive
        )
        select q.name,
               count(r.*) filter (where r.state in ('created', 'retry')) as waiting,
               count(r.*) filter (where r.state = 'active') as running,
               count(r.*) filter (where r.state = 'failed' and r.completed_on >= ${since.toISOString()}::timestamptz) as failed,
               max(r.completed_on) filter (where r.state = 'completed')::text as last_completed
          from ${schema}.queue q
          left join runs r on r.name = q.name
         group by q.name
         order by q.name`,
  );
  return rows.map((row) => ({
    name: row.name,
    waiting: Number(row.waiting),
    running: Number(row.running),
    failedLastDay: Number(row.failed),
    lastCompletedAt: row.last_completed ? new Date(row.last_completed).toISOString() : null,
  }));
}

/**
 * What pg-boss's maintenance records of a run still active long after its instance stopped renewing
 * its lease (docs/decisions/0021-durable-jobs.md, A dead instance's run): the backstop of ours.
 */
const TIMED_OUT = 'job failed by timeout in active state';

/** The latest failed runs since `since`, newest first, with what went wrong (never the stack). */
export async function recentJobFailures(db: Db, since: Date, limit: number): Promise<AdminJobFailure[]> {
  const rows = await rowsOf<{ id: string; name: string; failed_at: string; message: string | null }>(
    db,
    sql`select id::text, name, completed_on::text as failed_at,
               coalesce(output->>'message', output->'value'->>'message') as message
          from (
            select id, name, completed_on, output, state from ${schema}.job
            union all
            select id, name, completed_on, output, state from ${schema}.archive
          ) runs
         where state = 'failed' and completed_on >= ${since.toISOString()}::timestamptz
         order by completed_on desc
         limit ${limit}`,
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    failedAt: new Date(row.failed_at).toISOString(),
    message: row.message === TIMED_OUT ? RUN_LOST_MESSAGE : (row.message ?? 'No reason was recorded'),
  }));
}

/** Mail and push messages still to send. */
export async function outboxWaiting(db: Db): Promise<{ mail: number; push: number }> {
  const rows = await rowsOf<{ channel: string; waiting: string }>(
    db,
    sql`select channel, count(*) as waiting from outbox where status = 'queued' group by channel`,
  );
  const count = (channel: string) => Number(rows.find((row) => row.channel === channel)?.waiting ?? 0);
  return { mail: count('mail'), push: count('push') };
}
