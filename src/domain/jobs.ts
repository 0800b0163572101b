import { z } from 'zod';

/**
 * The admin's Jobs tab (docs/decisions/0021-durable-jobs.md): the durable jobs, how many runs wait
 * or run, how many failed in the last day and why, and the mail and push still to send.
 */

/** The jobs the server runs, by queue name, in the words the admin reads. */
export const JOB_LABELS: Record<string, string> = {
  payments: 'Payments, refunds and abandoned checkouts',
  'payout-retry': 'Payouts to sellers and drivers',
  notifications: 'Mail and push',
};

export const adminJobQueueSchema = z.object({
  name: z.string(),
  /** Runs asked for and not started. */
  waiting: z.number().int(),
  /** Runs in progress (one at most: a queue runs once across instances). */
  running: z.number().int(),
  /** Runs that failed or were lost with their instance in the last 24 hours. */
  failedLastDay: z.number().int(),
  /** When a run last finished well; null if none is recorded. */
  lastCompletedAt: z.string().nullable(),
});
export type AdminJobQueue = z.infer<typeof adminJobQueueSchema>;

export const adminJobFailureSchema = z.object({
  id: z.string(),
  name: z.string(),
  failedAt: z.string(),
  message: z.string(),
});
export type AdminJobFailure = z.infer<typeof adminJobFailureSchema>;

export const adminJobsSchema = z.object({
  queues: z.array(adminJobQueueSchema),
  /** The latest failures of the last 24 hours, newest first (20 at most). */
  failures: z.array(adminJobFailureSchema),
  /** Mail and push messages waiting to be sent (the outbox the "notifications" job drains). */
  outbox: z.object({ mail: z.number().int(), push: z.number().int() }),
});
export type AdminJobs = z.infer<typeof adminJobsSchema>;
