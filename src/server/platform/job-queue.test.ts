import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import type { AdminJobs } from '../../domain/jobs';
import { as, createTestApp, signedInAs, type TestApp } from '../testing/test-app';
import type { App } from './context';
import { JOB_SCHEMA, type RecurringJob } from './job-queue';

/**
 * The durable job queue (docs/decisions/0021-durable-jobs.md): jobs in the database, run once at a
 * time however many instances ask, failures kept for the admin, a run lost with its instance given
 * up and done again, and closing waiting for a run in progress.
 */

const FAST = { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1, stopTimeoutMs: 5_000 };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function instance(job: RecurringJob): Promise<TestApp> {
  const t = await createTestApp({ jobQueue: FAST, extend: (app) => app.jobs.every(job) });
  cleanups.push(() => t.close());
  return t;
}

/** A second instance of the server on the same database, with the same job. */
async function secondInstance(t: TestApp, job: RecurringJob): Promise<App> {
  const app = await buildApp({
    config: t.config,
    database: t.database,
    sessionSecret: crypto.randomBytes(32).toString('hex'),
    storage: t.storage,
    payoutRetryMs: 0,
    jobQueue: FAST,
  });
  app.jobs.every(job);
  await app.ready();
  cleanups.push(() => app.close());
  return app;
}

async function adminJobs(t: TestApp): Promise<AdminJobs> {
  const admin = await signedInAs(t, 'admin');
  const response = await as(t, admin, { method: 'GET', url: '/api/admin/jobs' });
  expect(response.statusCode).toBe(200);
  return response.json();
}

/** A promise the test settles, to hold a run open. */
function gate() {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

describe('the job queue', () => {
  it('runs a job asked for by two instances one run at a time, and the admin sees it', async () => {
    let running = 0;
    let overlapped = false;
    let runs = 0;
    const job: RecurringJob = {
      name: 'probe',
      everyMs: 100,
      run: async () => {
        running += 1;
        if (running > 1) overlapped = true;
        // Long enough that both instances ask several times while it runs.
        await new Promise((resolve) => setTimeout(resolve, 150));
        running -= 1;
        runs += 1;
      },
    };
    const t = await instance(job);
    await secondInstance(t, job);
    await expect.poll(() => runs, { timeout: 20_000 }).toBeGreaterThanOrEqual(4);
    expect(overlapped).toBe(false);
    // Both instances ask every 100 ms, yet at most one run waits: asks while one waits are dropped.
    const [queued] = await t.database
      .executeSql(
        `select count(*)::int as waiting from ${JOB_SCHEMA}.job where name = 'probe' and state = 'created'`,
      )
      .then((result) => result.rows as { waiting: number }[]);
    expect(queued?.waiting).toBeLessThanOrEqual(1);

    const jobs = await adminJobs(t);
    const probe = jobs.queues.find((queue) => queue.name === 'probe');
    expect(probe).toMatchObject({ failedLastDay: 0 });
    expect(probe?.lastCompletedAt).not.toBeNull();
    expect(jobs.outbox).toEqual({ mail: 0, push: 0 });
  });

  it('keeps a failed run with its reason for the admin, and runs the job again', async () => {
    let attempts = 0;
    const t = await instance({
      name: 'failing',
      everyMs: 200,
      run: async () => {
        attempts += 1;
        throw new Error('The card network is down');
      },
    });
    await expect.poll(() => attempts, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    await expect
      .poll(
        async () => (await adminJobs(t)).queues.find((queue) => queue.name === 'failing')?.failedLastDay ?? 0,
        {
          timeout: 20_000,
        },
      )
      .toBeGreaterThanOrEqual(1);
    const jobs = await adminJobs(t);
    expect(jobs.failures[0]).toMatchObject({ name: 'failing', message: 'The card network is down' });
    expect(JSON.stringify(jobs)).not.toContain(' at ');

    const buyer = await signedInAs(t, 'buyer');
    const refused = await as(t, buyer, { method: 'GET', url: '/api/admin/jobs' });
    expect(refused.statusCode).toBe(403);
  });

  it('gives up a run whose instance died mid-run, then the next run does the work, once', async () => {
    const done: string[] = [];
    const job: RecurringJob = {
      name: 'lost-and-found',
      everyMs: 60_000,
      run: async () => {
        done.push('run');
      },
    };
    // An instance took a run and died mid-run (as after a SIGKILL): its run stays active, an hour on.
    const t = await createTestApp();
    cleanups.push(() => t.close());
    const held = gate();
    cleanups.push(async () => held.open());
    await secondInstance(t, { ...job, run: () => held.promise });
    await expect.poll(async () => (await activeRuns(t, job.name)).length, { timeout: 20_000 }).toBe(1);
    await t.database.executeSql(
      `update ${JOB_SCHEMA}.job set started_on = now() - interval '1 hour' where name = $1 and state = 'active'`,
      [job.name],
    );

    // A restarted instance: the lost run times out, the next one runs, and only once.
    await secondInstance(t, job);
    await expect.poll(() => done.length, { timeout: 20_000 }).toBe(1);
    const jobs = await adminJobs(t);
    expect(jobs.failures.find((failure) => failure.name === job.name)?.message).toBe(
      'Stopped before it finished (its instance stopped, or it ran past its time limit)',
    );
    expect(done).toEqual(['run']);
  });

  it('waits for a run in progress when the app closes', async () => {
    const held = gate();
    let started = false;
    let finished = false;
    const t = await createTestApp({
      jobQueue: FAST,
      extend: (app) =>
        app.jobs.every({
          name: 'slow',
          everyMs: 60_000,
          run: async () => {
            started = true;
            await held.promise;
            finished = true;
          },
        }),
    });
    await expect.poll(() => started, { timeout: 20_000 }).toBe(true);
    const closing = t.app.close();
    setTimeout(held.open, 50);
    await closing;
    expect(finished).toBe(true);
    const completed = await t.database.executeSql(
      `select count(*)::int as n from ${JOB_SCHEMA}.job where name = 'slow' and state = 'completed'`,
    );
    expect(completed.rows).toEqual([{ n: 1 }]);
    await t.database.db.execute(sql`select 1`);
    await t.close().catch(() => {});
  });
});

async function activeRuns(t: TestApp, name: string): Promise<unknown[]> {
  return (
    await t.database.executeSql(`select id from ${JOB_SCHEMA}.job where name = $1 and state = 'active'`, [
      name,
    ])
  ).rows;
}
