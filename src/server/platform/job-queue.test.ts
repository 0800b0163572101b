import crypto from 'node:crypto';
import PgBoss from 'pg-boss';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import type { AdminJobs } from '../../domain/jobs';
import { as, createTestApp, signedInAs, type TestApp } from '../testing/test-app';
import type { App } from './context';
import {
  DEFAULT_JOB_QUEUE_SETTINGS,
  JOB_SCHEMA,
  JobQueue,
  RUN_LOST_MESSAGE,
  type RecurringJob,
} from './job-queue';

/**
 * The durable job queue (docs/decisions/0021-durable-jobs.md): jobs in the database, run once at a
 * time however many instances ask, failures kept for the admin, a run lost with its instance given
 * up and done again, and closing waiting for a run in progress.
 */

const FAST = {
  pollingIntervalSeconds: 0.5,
  maintenanceIntervalSeconds: 1,
  leaseSeconds: 2,
  stopTimeoutMs: 5_000,
};
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

  it('holds a run as long as its instance lives, renewing its lease, however long it runs', async () => {
    const done: string[] = [];
    const job: RecurringJob = { name: 'long-run', everyMs: 60_000, run: async () => void done.push('run') };
    const t = await createTestApp();
    cleanups.push(() => t.close());
    const held = gate();
    cleanups.push(async () => held.open());
    let holding = true;
    await secondInstance(t, {
      ...job,
      run: async () => {
        if (holding) await held.promise;
        holding = false;
      },
    });
    await expect.poll(async () => (await leaseEnds(t, job.name)).length, { timeout: 20_000 }).toBe(1);
    const [first = 0] = await leaseEnds(t, job.name);
    // Another instance asks for the job meanwhile, and waits: the run is renewed past several leases.
    await secondInstance(t, job);
    await expect
      .poll(async () => (await leaseEnds(t, job.name))[0] ?? 0, { timeout: 20_000 })
      .toBeGreaterThan(first + 3 * 1000 * FAST.leaseSeconds);
    expect(done).toEqual([]);
    // Once it ends, the run the other instance asked for runs (on either instance).
    held.open();
    await expect.poll(() => completedRuns(t, job.name), { timeout: 20_000 }).toBe(2);
  });

  it('gives up a run whose instance died once its lease runs out, and another runs the job, once', async () => {
    const done: string[] = [];
    const job: RecurringJob = {
      name: 'lost-and-found',
      everyMs: 60_000,
      run: async () => void done.push('run'),
    };
    const t = await createTestApp();
    cleanups.push(() => t.close());
    // An instance took a run and died (as after a SIGKILL): nobody renews its lease, nobody records it.
    const dead = new PgBoss({
      db: { executeSql: (text, values) => t.database.executeSql(text, values) },
      schema: JOB_SCHEMA,
      supervise: false,
    });
    await dead.start();
    await dead.createQueue(job.name, {
      name: job.name,
      policy: 'stately',
      retryLimit: 0,
      expireInSeconds: 3 * FAST.leaseSeconds,
    });
    await dead.send(job.name, {});
    const [lost] = await dead.fetch(job.name);
    await dead.stop({ graceful: false, close: false });
    expect(lost).toBeDefined();

    await secondInstance(t, job);
    await expect.poll(() => done.length, { timeout: 20_000 }).toBe(1);
    const jobs = await adminJobs(t);
    expect(jobs.failures.find((failure) => failure.name === job.name)).toMatchObject({
      id: lost?.id,
      message: RUN_LOST_MESSAGE,
    });
    expect(done).toEqual(['run']);
  });

  it('gives up a run past its time limit, and runs the job again', async () => {
    let started = 0;
    const t = await instance({
      name: 'hangs',
      everyMs: 300,
      timeLimitSeconds: 1,
      run: async () => {
        started += 1;
        // The first run never answers (a call without a timeout); the next ones finish.
        if (started === 1) await new Promise(() => {});
      },
    });
    await expect.poll(() => started, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    const jobs = await adminJobs(t);
    expect(jobs.failures.find((failure) => failure.name === 'hangs')?.message).toBe(
      'Stopped before it finished: it ran past its time limit of 1 s',
    );
  });

  it('goes on through a database outage: nothing left unhandled, and the job runs again once it is back', async () => {
    const t = await createTestApp();
    cleanups.push(() => t.close());
    // The database goes away right as a run ends, so its outcome cannot be recorded, and stays away
    // for a while: every call fails as pg does when its connection is gone.
    let away = false;
    let refused = 0;
    const flaky = {
      executeSql: (text: string, values?: unknown[]) => {
        if (!away) return t.database.executeSql(text, values);
        refused += 1;
        return Promise.reject(new Error('Connection terminated unexpectedly'));
      },
    };
    let runs = 0;
    const queue = new JobQueue(flaky, t.app.log, { ...DEFAULT_JOB_QUEUE_SETTINGS, ...FAST });
    queue.every({
      name: 'outage',
      everyMs: 200,
      run: async () => {
        runs += 1;
        if (runs === 2) away = true;
      },
    });
    await queue.start();
    cleanups.push(() => queue.stop());
    await expect.poll(() => runs, { timeout: 20_000 }).toBe(2);
    // Asks, fetches, lease renewals and pg-boss's maintenance all fail meanwhile.
    await expect.poll(() => refused, { timeout: 20_000 }).toBeGreaterThanOrEqual(20);
    away = false;
    // The run whose outcome was lost is given up once its lease runs out, and runs go on.
    await expect.poll(() => runs, { timeout: 20_000 }).toBeGreaterThanOrEqual(4);
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

/** When the lease of each active run of the job runs out (pg-boss's expiry), in ms since 1970. */
async function leaseEnds(t: TestApp, name: string): Promise<number[]> {
  const { rows } = await t.database.executeSql(
    `select (extract(epoch from started_on + expire_in) * 1000)::float8 as ends from ${JOB_SCHEMA}.job where name = $1 and state = 'active'`,
    [name],
  );
  return (rows as { ends: number }[]).map((row) => Number(row.ends));
}

async function completedRuns(t: TestApp, name: string): Promise<number> {
  const { rows } = await t.database.executeSql(
    `select count(*)::int as n from ${JOB_SCHEMA}.job where name = $1 and state = 'completed'`,
    [name],
  );
  return (rows as { n: number }[])[0]?.n ?? 0;
}
