import { z } from 'zod';
import { errorBodySchema } from '../../../domain/errors';
import { adminMailPageSchema, adminMailQuerySchema, emailPreferencesSchema } from '../../../domain/mail';
import {
  notificationPreferencesSchema,
  pushSubscribeBodySchema,
  pushSubscriptionSchema,
  pushUnsubscribeBodySchema,
  vapidPublicKeySchema,
  QUIET_HOURS_BOTH_MESSAGE,
} from '../../../domain/push';
import { actorOf } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import { refusedWith } from '../../platform/openapi';
import { drainOutbox, type DrainReport } from '../../platform/outbox';
import { dispatchLiveEvents } from './dispatch-live-events';
import { outboxDeliverers } from './deliverers';
import { liveEventReactors } from './reactors';
import {
  getPreferences,
  PUSH_ENDPOINT_NOT_PUBLIC,
  savePreferences,
  subscribePush,
  unsubscribePush,
} from './push-subscriptions';
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
    // Account requests first: the mail they cause goes out in the same run.
    const { account, ...channels } = deliverers;
    if (account) while ((await drainOutbox(ctx.db, { account }, ctx.now())).sent > 0);
    const report = await drainOutbox(ctx.db, channels, ctx.now());
    return { ...report, dispatched };
  };
  app.decorate('runNotifications', run);
  app.jobs.every({ name: 'notifications', everyMs: ctx.config.notifyIntervalMs, run });
}

/**
 * Web Push on this device and the switches (docs/decisions/0019-reaching-people.md, Push and the
 * installable app): every call is the signed-in user's own.
 */
export function registerPushRoutes(app: App, ctx: AppContext): void {
  const { db } = ctx;
  app.get(
    '/api/push/public-key',
    {
      schema: {
        tags: ['notifications'],
        summary: "The server's VAPID public key, for PushManager.subscribe",
        response: { 200: vapidPublicKeySchema, 401: errorBodySchema },
      },
    },
    async () => ({ publicKey: ctx.vapid.publicKey }),
  );

  app.post(
    '/api/push/subscriptions',
    {
      schema: {
        tags: ['notifications'],
        summary:
          'Subscribe this device to push (PushSubscription.toJSON()); an endpoint subscribed again belongs to the latest user',
        body: pushSubscribeBodySchema,
        response: {
          201: pushSubscriptionSchema,
          400: refusedWith([PUSH_ENDPOINT_NOT_PUBLIC]),
          401: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const saved = await subscribePush(db, actorOf(request).id, request.body, {
        userAgent: request.headers['user-agent'],
        allowPrivate: ctx.config.pushAllowPrivateHosts,
        resolve: ctx.resolveHost,
        now: ctx.now(),
      });
      return reply.status(201).send(saved);
    },
  );

  app.delete(
    '/api/push/subscriptions',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Unsubscribe a device of your own by its endpoint',
        body: pushUnsubscribeBodySchema,
        response: { 204: z.null(), 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      await unsubscribePush(db, actorOf(request).id, request.body.endpoint);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/push/preferences',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Your push switches per kind and quiet hours (minutes of the day, marketplace time zone)',
        response: { 200: notificationPreferencesSchema, 401: errorBodySchema },
      },
    },
    async (request) => getPreferences(db, actorOf(request).id),
  );

  app.put(
    '/api/push/preferences',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Save your push switches and quiet hours',
        body: notificationPreferencesSchema,
        response: {
          200: notificationPreferencesSchema,
          400: refusedWith([QUIET_HOURS_BOTH_MESSAGE]),
          401: errorBodySchema,
        },
      },
    },
    async (request) => savePreferences(db, actorOf(request).id, request.body, ctx.now()),
  );
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
