import type { App, AppContext } from '../../platform/context';
import { drainOutbox, type DrainReport } from '../../platform/outbox';
import { startRecurring } from '../../platform/recurring';
import { dispatchLiveEvents } from './dispatch-live-events';
import { outboxDeliverers } from './deliverers';
import { liveEventReactors } from './reactors';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The notifications timer's work, once: live events turned into mail and push, then what is due
     * sent (docs/decisions/0019-reaching-people.md). Tests call it instead of waiting for the timer.
     */
    runNotifications(): Promise<DrainReport & { dispatched: number }>;
  }
}

/** Starts the notifications timer (NOTIFY_INTERVAL_MS; 0 turns it off, as in tests). */
export function registerNotificationJobs(app: App, ctx: AppContext): void {
  const reactors = liveEventReactors(ctx);
  const deliverers = outboxDeliverers(ctx, app.log);
  const run = async () => {
    let dispatched = 0;
    for (;;) {
      const batch = await dispatchLiveEvents(ctx.db, reactors);
      dispatched += batch;
      if (batch === 0) break;
    }
    const report = await drainOutbox(ctx.db, deliverers, ctx.now());
    return { ...report, dispatched };
  };
  app.decorate('runNotifications', run);
  startRecurring(app, { name: 'notifications', everyMs: ctx.config.notifyIntervalMs, run });
}
