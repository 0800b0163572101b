import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';

declare module 'fastify' {
  interface FastifyInstance {
    /** The durable job queue of this instance (docs/decisions/0021-durable-jobs.md). */
    jobs: JobQueue;
  }
}

/** Where pg-boss keeps its tables, beside the marketplace's (docs/decisions/0021-durable-jobs.md). */
export const JOB_SCHEMA = 'pgboss';

export interface RecurringJob {
  /** The queue's name: letters, digits and dashes. */
  name: string;
  /** Time between the starts of two runs; 0 or less turns the job off (tests run the job themselves). */
  everyMs: number;
  run: () => Promise<unknown>;
  /**
   * The longest a run may take, its longest honest run with room to spare: past it the run is
   * recorded as failed and the next may start, so a call that never answers does not hold the job
   * for ever. Five intervals, at least a minute, by default.
   */
  timeLimitSeconds?: number;
}

export interface JobQueueSettings {
  /**
   * How long a run stays held without its instance renewing it (every third of this): past it,
   * another instance gives the run up and takes the job over (docs/decisions/0021-durable-jobs.md,
   * A dead instance's run).
   */
  leaseSeconds: number;
  /** How often an instance clears old runs (pg-boss's maintenance; it gives up lost runs too). */
  maintenanceIntervalSeconds: number;
  /** The longest wait between a queued run and its start when no instance was told of it. */
  pollingIntervalSeconds: number;
  /** How long a finished run stays in the job table, and a failed one, before the archive. */
  archiveCompletedAfterSeconds: number;
  archiveFailedAfterSeconds: number;
  /** How long the archive keeps them. */
  deleteAfterHours: number;
  /** How long closing waits for runs in progress. */
  stopTimeoutMs: number;
}

export const DEFAULT_JOB_QUEUE_SETTINGS: JobQueueSettings = {
  leaseSeconds: 15,
  maintenanceIntervalSeconds: 30,
  pollingIntervalSeconds: 2,
  archiveCompletedAfterSeconds: 10 * 60,
  archiveFailedAfterSeconds: 24 * 60 * 60,
  deleteAfterHours: 24,
  stopTimeoutMs: 8_000,
};

/** What a run given up is recorded with, for the admin's Jobs tab (a run's failure has a `message`). */
export const RUN_LOST_MESSAGE = 'Stopped before it finished: its instance stopped renewing its lease';
export const RUN_SHUT_DOWN_MESSAGE = 'Stopped before it finished: its instance shut down';
/** pg-boss's expiry gives a run up this many leases after its last renewal (`backstopSeconds`). */
const BACKSTOP_LEASES = 3;

const runTimedOutMessage = (seconds: number) =>
  `Stopped before it finished: it ran past its time limit of ${seconds} s`;

/** A run this instance took and has not finished recording. */
interface HeldRun {
  job: RecurringJob;
  id: string;
  /** Settles once the run's outcome is recorded (or could not be). */
  done: Promise<void>;
  /** Closing gave it up: its outcome is not recorded any more. */
  abandoned: boolean;
  /** Another instance gave it up (this one stopped renewing its lease for too long). */
  lost: boolean;
}

/**
 * The work that must be finished even when nobody asks again (money retries, payouts, mail and
 * push), as jobs in the database with pg-boss (docs/decisions/0021-durable-jobs.md). Each instance
 * asks for a run every `everyMs`; a queue of the "stately" policy keeps at most one run waiting and
 * one running across all instances, so a job's effect happens once however many instances ask.
 *
 * This instance takes runs, renews the lease of each it holds and records its outcome itself
 * (pg-boss's own worker records outcomes without waiting for them, so a database away made them
 * unhandled rejections, and it cannot renew a lease). A run whose instance stopped renewing it is
 * given up by another instance once the lease runs out, and the job runs there. Every call to the
 * database here is awaited and its failure logged: a database away never stops the server, and the
 * queue goes on when it is back. Closing stops asking and waits for runs in progress.
 */
export class JobQueue {
  private readonly jobs: RecurringJob[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly held = new Map<string, HeldRun>();
  private readonly fetches = new Set<Promise<unknown>>();
  private readonly wakers = new Map<string, () => void>();
  /** Jobs whose last ask failed, so an outage is logged once, not every tick. */
  private readonly failingAsks = new Set<string>();
  private boss: PgBoss | undefined;
  private starting: Promise<void> | undefined;
  private ticking = false;
  /** The last tick failed (the database away): its failures are logged once per outage. */
  private tickFailing = false;
  private stopped = false;

  constructor(
    private readonly database: Pick<Database, 'executeSql'>,
    private readonly log: FastifyBaseLogger,
    private readonly settings: JobQueueSettings = DEFAULT_JOB_QUEUE_SETTINGS,
  ) {}

  /** Adds a recurring job; one with an interval of 0 or less is never run by the queue. */
  every(job: RecurringJob): void {
    if (!/^[a-z0-9-]+$/.test(job.name)) throw new Error(`Not a job name: ${job.name}`);
    if (job.everyMs > 0) this.jobs.push(job);
  }

  /** True when some job runs on the queue (tests turn every interval off). */
  get hasJobs(): boolean {
    return this.jobs.length > 0;
  }

  /** Creates the queue's tables if needed, starts the workers and the timers; once. */
  start(): Promise<void> {
    this.starting ??= this.startOnce();
    return this.starting;
  }

  private async startOnce(): Promise<void> {
    if (this.jobs.length === 0 || this.stopped) return;
    const boss = new PgBoss({
      db: { executeSql: (text, values) => this.database.executeSql(text, values) },
      schema: JOB_SCHEMA,
      supervise: true,
      schedule: false,
      migrate: true,
      maintenanceIntervalSeconds: this.settings.maintenanceIntervalSeconds,
      archiveCompletedAfterSeconds: this.settings.archiveCompletedAfterSeconds,
      archiveFailedAfterSeconds: this.settings.archiveFailedAfterSeconds,
      deleteAfterHours: this.settings.deleteAfterHours,
    });
    // Its maintenance's failures (the database away): logged, and it tries again at its next turn.
    boss.on('error', (error) => this.log.error({ err: error }, 'job queue error'));
    await boss.start();
    this.boss = boss;
    for (const job of this.jobs) await this.ensureQueue(boss, job);
    if (this.stopped) return;
    for (const job of this.jobs) {
      void this.work(boss, job);
      void this.ask(job);
      const timer = setInterval(() => void this.ask(job), job.everyMs);
      timer.unref();
      this.timers.push(timer);
    }
    const lease = setInterval(() => void this.tick(boss), this.heartbeatMs);
    lease.unref();
    this.timers.push(lease);
  }

  /** A third of the lease: two renewals may fail before another instance gives a run up. */
  private get heartbeatMs(): number {
    return (this.settings.leaseSeconds * 1000) / 3;
  }

  /**
   * A run's `expire_in` in pg-boss's table: its time since it started plus this, at each renewal.
   * So the time of its last renewal is `started_on + expire_in - backstop`, and pg-boss's maintenance
   * (every `maintenanceIntervalSeconds`, on one instance) gives it up only this long after it,
   * where every instance's own look (every third of the lease) gives it up after one lease.
   */
  private get backstopSeconds(): number {
    return BACKSTOP_LEASES * this.settings.leaseSeconds;
  }

  /** Creates the job's queue, or brings its settings up to date when another instance did. */
  private async ensureQueue(boss: PgBoss, job: RecurringJob): Promise<void> {
    const options: PgBoss.Queue = {
      name: job.name,
      policy: 'stately',
      retryLimit: 0,
      // pg-boss's own expiry, the backstop: a run is given up by its maintenance only well after
      // the lease ran out, when no instance of this code was there to take the job over first.
      expireInSeconds: this.backstopSeconds,
    };
    if (await boss.getQueue(job.name)) {
      await boss.updateQueue(job.name, options);
      return;
    }
    try {
      await boss.createQueue(job.name, options);
    } catch (error) {
      // Another instance created it meanwhile.
      if (!(await boss.getQueue(job.name))) throw error;
      await boss.updateQueue(job.name, options);
    }
  }

  /** The job's worker: takes a waiting run, runs it, and looks again; waits when there is none. */
  private async work(boss: PgBoss, job: RecurringJob): Promise<void> {
    const pollMs = Math.max(0.5, Math.min(this.settings.pollingIntervalSeconds, job.everyMs / 1000)) * 1000;
    while (!this.stopped) {
      let ran = false;
      try {
        ran = await this.takeAndRun(boss, job);
      } catch (error) {
        this.log.error({ err: error, job: job.name }, 'job worker error; it goes on');
      }
      if (!ran && !this.stopped) await this.sleep(job.name, pollMs);
    }
  }

  /** Runs the job's waiting run if this instance can take it; answers whether it did. */
  private async takeAndRun(boss: PgBoss, job: RecurringJob): Promise<boolean> {
    // pg-boss answers no run when the database fails, as when another instance holds the job.
    const fetching = boss.fetch(job.name, { batchSize: 1 });
    this.fetches.add(fetching);
    const [run] = await fetching.finally(() => this.fetches.delete(fetching));
    if (!run) return false;
    let settle = () => {};
    const held: HeldRun = {
      job,
      id: run.id,
      done: new Promise<void>((resolve) => (settle = resolve)),
      abandoned: false,
      lost: false,
    };
    this.held.set(run.id, held);
    try {
      // The first renewal at once; one that fails is tried again at the next tick.
      await this.renewLeases([held]).catch((error: unknown) =>
        this.log.warn({ err: error, job: job.name }, 'job queue: could not renew the lease of a run'),
      );
      await this.runHeld(boss, held);
    } finally {
      this.held.delete(run.id);
      settle();
    }
    return true;
  }

  /** Runs a held run within the job's time limit and records how it ended. */
  private async runHeld(boss: PgBoss, held: HeldRun): Promise<void> {
    const { job } = held;
    const limitSeconds = job.timeLimitSeconds ?? Math.max(60, Math.ceil((job.everyMs * 5) / 1000));
    let limitTimer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<{ kind: 'timed-out' }>((resolve) => {
      limitTimer = setTimeout(() => resolve({ kind: 'timed-out' }), limitSeconds * 1000);
      limitTimer.unref();
    });
    const outcome = await Promise.race([
      Promise.resolve()
        .then(() => job.run())
        .then(
          () => ({ kind: 'done' as const }),
          (error: unknown) => ({ kind: 'failed' as const, error }),
        ),
      timedOut,
    ]).finally(() => clearTimeout(limitTimer));
    if (held.abandoned) return;
    try {
      if (outcome.kind === 'done') {
        await boss.complete(job.name, held.id);
      } else if (outcome.kind === 'failed') {
        // Recorded as the run's failure for the admin's Jobs tab; the next run tries again.
        this.log.error(
          { err: outcome.error, job: job.name },
          'job failed; it runs again at the next interval',
        );
        await boss.fail(job.name, held.id, failureOutput(outcome.error));
      } else {
        // The run goes on unwatched: its result is ignored, and the next run may start.
        this.log.error({ job: job.name, limitSeconds }, 'job ran past its time limit; it is given up');
        await boss.fail(job.name, held.id, { message: runTimedOutMessage(limitSeconds) });
      }
    } catch (error) {
      // Its lease runs out and another run does its work.
      this.log.error(
        { err: error, job: job.name },
        'could not record how a job run ended; it is given up when its lease runs out',
      );
    }
  }

  /**
   * Every third of the lease: renews the lease of the runs this instance holds, then gives up the
   * runs whose lease ran out (their instance died or lost the database) and asks for the job again.
   */
  private async tick(boss: PgBoss): Promise<void> {
    if (this.ticking || this.stopped) return;
    this.ticking = true;
    try {
      await this.renewLeases([...this.held.values()]);
      await this.takeOverLostRuns(boss);
      if (this.tickFailing) this.log.info('job queue: leases are renewed again');
      this.tickFailing = false;
    } catch (error) {
      // Once per outage, not every tick: another instance takes a run over if this goes on.
      if (this.tickFailing) this.log.debug({ err: error }, 'job queue: could not renew leases');
      else
        this.log.warn(
          { err: error },
          'job queue: could not renew the leases of its runs nor look for lost ones; trying again every few seconds',
        );
      this.tickFailing = true;
    } finally {
      this.ticking = false;
    }
  }

  private async renewLeases(runs: HeldRun[]): Promise<void> {
    const live = runs.filter((run) => !run.abandoned && !run.lost);
    if (live.length === 0) return;
    const { rows } = await this.database.executeSql(
      `update ${JOB_SCHEMA}.job set expire_in = (now() - started_on) + $1 * interval '1 second'
          where state = 'active' and id in (${live.map((_, i) => `$${i + 2}`).join(', ')})
          returning id::text as id`,
      [this.backstopSeconds, ...live.map((run) => run.id)],
    );
    const renewed = new Set((rows as { id: string }[]).map((row) => row.id));
    for (const run of live) {
      if (renewed.has(run.id)) continue;
      run.lost = true;
      this.log.warn(
        { job: run.job.name, run: run.id },
        'a job run of this instance was given up (its lease ran out while it could not be renewed); its result is ignored',
      );
    }
  }

  private async takeOverLostRuns(boss: PgBoss): Promise<void> {
    const names = this.jobs.map((job) => job.name);
    const { rows } = await this.database.executeSql(
      `select id::text as id, name from ${JOB_SCHEMA}.job
          where state = 'active'
            and started_on + expire_in - $1 * interval '1 second' < now()
            and name in (${names.map((_, i) => `$${i + 2}`).join(', ')})`,
      [this.backstopSeconds - this.settings.leaseSeconds, ...names],
    );
    for (const { id, name } of rows as { id: string; name: string }[]) {
      // This instance's own, late only because the database was busy: it goes on.
      if (this.held.has(id) || this.stopped) continue;
      await boss.fail(name, id, { message: RUN_LOST_MESSAGE });
      this.log.warn(
        { job: name, run: id },
        'a job run whose instance stopped was given up; the job runs again',
      );
      const job = this.jobs.find((candidate) => candidate.name === name);
      if (job) await this.askUnlessPending(job);
    }
  }

  /**
   * Asks for a run in place of one given up, unless one is waiting or already running: a run asked
   * for earlier may have started the moment the lost one was failed (the queue lets one wait while
   * another runs), and the job must run again once, not twice.
   */
  private async askUnlessPending(job: RecurringJob): Promise<void> {
    const { rows } = await this.database.executeSql(
      `select 1 from ${JOB_SCHEMA}.job where name = $1 and state in ('created', 'retry', 'active') limit 1`,
      [job.name],
    );
    if (rows.length === 0) await this.ask(job);
    else this.wakers.get(job.name)?.();
  }

  /** Queues a run unless one is waiting already, and wakes this instance's worker for it. */
  private async ask(job: RecurringJob): Promise<void> {
    const boss = this.boss;
    if (!boss || this.stopped) return;
    try {
      await boss.send(job.name, {});
      this.wakers.get(job.name)?.();
      if (this.failingAsks.delete(job.name)) this.log.info({ job: job.name }, 'job runs are queued again');
    } catch (error) {
      if (this.stopped) return;
      // Once per outage: the timer asks again every interval.
      if (this.failingAsks.has(job.name))
        this.log.debug({ err: error, job: job.name }, 'could not queue a job run');
      else
        this.log.error(
          { err: error, job: job.name },
          'could not queue a job run; asking again every interval',
        );
      this.failingAsks.add(job.name);
    }
  }

  /** Waits `ms`, or until `ask` wakes the job's worker. */
  private sleep(name: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.wakers.get(name) === done) this.wakers.delete(name);
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      this.wakers.set(name, done);
    });
  }

  /**
   * Stops asking for runs and waits for runs in progress (at most `stopTimeoutMs`); one still going
   * then is recorded as failed, and the next run, on any instance, does its work.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    for (const wake of [...this.wakers.values()]) wake();
    await this.starting?.catch((error: unknown) => {
      this.log.error({ err: error }, 'job queue did not start');
    });
    const boss = this.boss;
    if (!boss) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.settings.stopTimeoutMs);
    });
    const settled = (async () => {
      // A run fetched while closing is held once its fetch answers.
      await Promise.allSettled([...this.fetches]);
      await Promise.all([...this.held.values()].map((run) => run.done));
    })();
    await Promise.race([settled, timeout]).finally(() => clearTimeout(timer));
    for (const run of [...this.held.values()]) {
      run.abandoned = true;
      try {
        await boss.fail(run.job.name, run.id, { message: RUN_SHUT_DOWN_MESSAGE });
      } catch (error) {
        this.log.error({ err: error, job: run.job.name }, 'could not record a job run stopped by closing');
      }
    }
    try {
      await boss.stop({ graceful: false, close: false });
    } catch (error) {
      this.log.error({ err: error }, 'job queue did not stop cleanly');
    }
  }
}

/** What a failed run records: the error's own fields (pg-boss keeps its message and stack). */
function failureOutput(error: unknown): object {
  return typeof error === 'object' && error !== null ? error : { value: error };
}
