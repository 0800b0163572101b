import { errorBodySchema } from '../../../domain/errors';
import { adminJobsSchema, type AdminJobs } from '../../../domain/jobs';
import type { App, AppContext } from '../../platform/context';
import { hasJobTables, jobQueueStates, outboxWaiting, recentJobFailures } from './jobs.queries';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The admin's view of the durable jobs (docs/decisions/0021-durable-jobs.md). */
export function registerJobRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/admin/jobs',
    {
      config: { roles: ['admin'], forbiddenMessage: 'You must be an admin to do this' },
      schema: {
        tags: ['admin'],
        summary:
          'Admin: the durable jobs, runs waiting and running, failures of the last day, mail and push to send',
        response: { 200: adminJobsSchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (): Promise<AdminJobs> => {
      const since = new Date(ctx.now().getTime() - DAY_MS);
      const outbox = await outboxWaiting(ctx.db);
      // Before any instance has started the queue (it starts after the first one is ready) there is nothing
      // to show.
      if (!(await hasJobTables(ctx.db))) return { queues: [], failures: [], outbox };
      const [queues, failures] = [
        await jobQueueStates(ctx.db, since),
        await recentJobFailures(ctx.db, since, 20),
      ];
      return { queues, failures, outbox };
    },
  );
}
