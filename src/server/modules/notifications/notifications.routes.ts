import { errorBodySchema } from '../../../domain/errors';
import { adminMailPageSchema, adminMailQuerySchema, emailPreferencesSchema } from '../../../domain/mail';
import { actorOf } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import { drainOutbox, type DrainReport } from '../../platform/outbox';
import { startRecurring } from '../../platform/recurring';
import { dispatchLiveEvents } from './dispatch-live-events';
import { outboxDeliverers } from './deliverers';
import { liveEventReactors } from './reactors';
import { getEmailPreferences, listMailForAdmin, setEmailPreferences } from './notifications.service';

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

/** The caller's mail switches and the admin's Mail tab (docs/decisions/0019-reaching-people.md, Mail). */
export function registerNotificationRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/auth/user/email-preferences',
    {
      schema: {
        tags: ['users'],
        summary: "The signed-in user's mail switches",
        response: { 200: emailPreferencesSchema, 401: errorBodySchema },
      },
    },
    async (request) => getEmailPreferences(ctx.db, actorOf(request).id),
  );

  app.patch(
    '/api/auth/user/email-preferences',
    {
      schema: {
        tags: ['users'],
        summary: "Change the signed-in user's mail switches (a driver's offer emails)",
        body: emailPreferencesSchema,
        response: { 200: emailPreferencesSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => setEmailPreferences(ctx.db, actorOf(request).id, request.body, ctx.now()),
  );

  app.get(
    '/api/admin/mail',
    {
      config: { roles: ['admin'], forbiddenMessage: 'You must be an admin to do this' },
      schema: {
        tags: ['admin'],
        summary: 'Admin: the mail sent, queued or given up on, newest first, with its plain text',
        querystring: adminMailQuerySchema,
        response: {
          200: adminMailPageSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
        },
      },
    },
    async (request) => listMailForAdmin(ctx.db, request.query.page),
  );
}
