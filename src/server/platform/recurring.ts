import type { FastifyInstance } from 'fastify';

export interface RecurringJob {
  /** Names the job in the log. */
  name: string;
  /** Time between the starts of two runs; 0 or less turns the job off (tests run the job themselves). */
  everyMs: number;
  run: () => Promise<unknown>;
}

/**
 * Work that must be finished even when nobody asks again (docs/decisions/0013-money-movement.md):
 * runs `job.run` once when the app is ready, then every `everyMs`. A run never starts while the
 * previous run of the same job is still going (the tick is skipped), an error is logged and the
 * next tick tries again, and closing the app stops the timer and waits for a run in progress. The
 * timer is unref'd, so it never keeps the process alive on its own.
 */
export function startRecurring(app: FastifyInstance, job: RecurringJob): void {
  if (job.everyMs <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const runOnce = async (): Promise<void> => {
    try {
      await job.run();
    } catch (error) {
      app.log.error({ err: error, job: job.name }, 'recurring job failed; it runs again at the next tick');
    }
  };
  const tick = (): Promise<void> => {
    if (running || stopped) return running ?? Promise.resolve();
    const current = runOnce().finally(() => {
      if (running === current) running = undefined;
    });
    running = current;
    return current;
  };

  app.addHook('onReady', async () => {
    void tick();
    timer = setInterval(() => void tick(), job.everyMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    stopped = true;
    if (timer) clearInterval(timer);
    await running;
  });
}
