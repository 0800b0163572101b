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
   * How long a run may stay active before it counts as lost (its instance died) and another
   * may start: the job's longest honest run, with room to spare.
   */
  expireInSeconds?: number;
}

export interface JobQueueSettings {
  /** How often an instance looks for lost runs and clears old ones (pg-boss's maintenance). */
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
  maintenanceIntervalSeconds: 30,
  pollingIntervalSeconds: 2,
  archiveCompletedAfterSeconds: 10 * 60,
  archiveFailedAfterSeconds: 24 * 60 * 60,
  deleteAfterHours: 24,
  stopTimeoutMs: 8_000,
};

/**
 * The work that must be finished even when nobody asks again (money retries, payouts, mail and
 * push), as jobs in the database with pg-boss (docs/decisions/0021-durable-jobs.md). Each instance
 * asks for a run every `everyMs`; a queue of the "stately" policy keeps at most one run waiting and
 * one running across all instances, so a job's effect happens once however many instances ask. A
 * run whose instance died stays active until it expires, then counts as failed and the next one
 * starts. Closing stops asking and waits for runs in progress.
 */
export class JobQueue {
  private readonly jobs: RecurringJob[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly workers = new Map<string, string>();
  private boss: PgBoss | undefined;
  private starting: Promise<void> | undefined;
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
    boss.on('error', (error) => this.log.error({ err: error }, 'job queue error'));
    await boss.start();
    this.boss = boss;
    for (const job of this.jobs) {
      await this.ensureQueue(boss, job);
      const workerId = await boss.work(
        job.name,
        {
          batchSize: 1,
          pollingIntervalSeconds: Math.max(
            0.5,
            Math.min(this.settings.pollingIntervalSeconds, job.everyMs / 1000),
          ),
        },
        async (runs) => {
          // The run's outcome is written before the handler returns: pg-boss writes it without
          // waiting once the handler has returned, and closing waits only for handlers, so an app
          // closing right after a run could leave it active, to be counted as failed at expiry.
          const ids = runs.map((run) => run.id);
          try {
            await job.run();
          } catch (error) {
            // Recorded as the run's failure for the admin's Jobs tab; the next run tries again.
            this.log.error({ err: error, job: job.name }, 'job failed; it runs again at the next interval');
            await boss.fail(
              job.name,
              ids,
              typeof error === 'object' && error !== null ? error : { value: error },
            );
            return;
          }
          await boss.complete(job.name, ids);
        },
      );
      this.workers.set(job.name, workerId);
      if (this.stopped) return;
      void this.ask(job);
      const timer = setInterval(() => void this.ask(job), job.everyMs);
      timer.unref();
      this.timers.push(timer);
    }
  }

  /** Creates the job's queue, or brings its settings up to date when another instance did. */
  private async ensureQueue(boss: PgBoss, job: RecurringJob): Promise<void> {
    const options: PgBoss.Queue = {
      name: job.name,
      policy: 'stately',
      retryLimit: 0,
      expireInSeconds: job.expireInSeconds ?? Math.max(60, Math.ceil((job.everyMs * 5) / 1000)),
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

  /** Queues a run unless one is waiting already, and wakes this instance's worker for it. */
  private async ask(job: RecurringJob): Promise<void> {
    const boss = this.boss;
    if (!boss || this.stopped) return;
    try {
      const id = await boss.send(job.name, {});
      const workerId = this.workers.get(job.name);
      if (id && workerId) boss.notifyWorker(workerId);
    } catch (error) {
      if (!this.stopped) this.log.error({ err: error, job: job.name }, 'could not queue a job run');
    }
  }

  /** Stops asking for runs and waits for runs in progress (at most `stopTimeoutMs`). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    await this.starting?.catch((error: unknown) => {
      this.log.error({ err: error }, 'job queue did not start');
    });
    const boss = this.boss;
    if (!boss) return;
    // Runs still going after the timeout are recorded as failed; the next run does their work.
    await boss.stop({ graceful: true, wait: true, close: false, timeout: this.settings.stopTimeoutMs });
  }
}
