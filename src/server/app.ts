import crypto from 'node:crypto';
import Fastify, { LogController, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import swagger from '@fastify/swagger';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import { generateVapidKeys, type VapidKeys } from './secrets';
import type { Database } from './db/client';
import {
  registerNotificationJobs,
  registerNotificationRoutes,
  registerPushRoutes,
} from './modules/notifications/notifications.routes';
import { LogMailer, type Mailer } from './adapters/mail/mailer';
import { SmtpMailer } from './adapters/mail/smtp-mailer';
import type { IdentityProvider } from './adapters/identity/identity-provider';
import type { Geocoder } from './adapters/geocoding/geocoder';
import { ZipCentroidGeocoder } from './adapters/geocoding/zip-centroid-geocoder';
import { resolveWithDns, type ResolveHost } from './platform/public-address';
import type { ObjectStorage } from './adapters/storage/object-storage';
import { createObjectStorage } from './adapters/storage/create-object-storage';
import { ImageCopyMaker } from './modules/uploads/uploads.service';
import type { PaymentProvider } from './adapters/payments/payment-provider';
import type { PayoutProvider } from './adapters/payouts/payout-provider';
import { createPayoutProvider } from './adapters/payouts/create-payout-provider';
import type { App, AppContext } from './platform/context';
import { registerAccessControl, isPublicRoute } from './platform/access';
import { registerErrorHandling } from './platform/errors';
import { registerInputGuard } from './platform/input-guard';
import { withPrivateLogging } from './platform/logging';
import { openApiTransform } from './platform/openapi';
import { createClientErrorHandler, createFrameworkErrorHandler } from './platform/raw-errors';
import {
  createRateLimits,
  DEFAULT_RATE_LIMITS,
  type RateCounts,
  type RateLimitSettings,
} from './platform/rate-limit';
import type { RedisRateCounts } from './adapters/redis/redis-rate-counts';
import { createSecurityHeaders, registerSecurity, securityHeaderList } from './platform/security';
import { registerCompression } from './platform/compression';
import { KeptPrivateReads } from './platform/kept-private-reads';
import { registerSessions } from './platform/sessions';
import { registerSignedInReplays, SignedInReplays } from './platform/signed-in-replays';
import { LiveEventHub } from './platform/live-event-hub';
import { DEFAULT_JOB_QUEUE_SETTINGS, JobQueue, type JobQueueSettings } from './platform/job-queue';
import {
  DEFAULT_PUBLIC_CACHE_OPTIONS,
  keptReadsServer,
  PublicAnswerCache,
  registerPublicCache,
} from './platform/public-cache';
import { buildOperations } from './platform/operations';
import { createOidcIdentityProvider, createPaymentProvider } from './platform/providers';
import { serveWebApp, type FirstScreenRenderer } from './platform/web-app';
import { registerAddressRoutes } from './modules/addresses/addresses.routes';
import { registerAdminRoutes } from './modules/admin/admin.routes';
import { registerAuthRoutes } from './modules/auth/auth.routes';
import { registerAvailabilityRoutes } from './modules/availability/availability.routes';
import { registerCatalogRoutes } from './modules/catalog/catalog.routes';
import { registerCategoryRoutes } from './modules/categories/categories.routes';
import { registerCheckoutRoutes } from './modules/checkout/checkout.routes';
import { registerCommissionRoutes } from './modules/commission/commission.routes';
import { registerDeliveryProofRoutes } from './modules/delivery-proof/delivery-proof.routes';
import { registerDeliveryRoutes } from './modules/deliveries/deliveries.routes';
import { registerDisputeRoutes } from './modules/disputes/disputes.routes';
import { registerEarningsRoutes } from './modules/earnings/earnings.routes';
import { registerEventRoutes } from './modules/events/events.routes';
import { registerMessageRoutes } from './modules/messages/messages.routes';
import { registerReviewRoutes } from './modules/reviews/reviews.routes';
import { registerOrderRoutes } from './modules/orders/orders.routes';
import { registerPaymentRoutes } from './modules/payments/payments.routes';
import { registerPayoutJobs } from './modules/payouts/payout-jobs';
import { registerPayoutRoutes } from './modules/payouts/payouts.routes';
import { registerRefundRoutes } from './modules/refunds/refunds.routes';
import { registerPayoutAccountRoutes } from './modules/payout-accounts/payout-accounts.routes';
import { registerProductRoutes } from './modules/products/products.routes';
import { registerHealthRoutes } from './modules/health/health.routes';
import { registerJobRoutes } from './modules/jobs/jobs.routes';
import { registerSupportRoutes } from './modules/support/support.routes';
import { registerUploadRoutes } from './modules/uploads/uploads.routes';
import { registerUserRoutes } from './modules/users/users.routes';

/** JSON bodies are small: names, addresses, messages. Files go to object storage, not here. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface BuildOptions {
  config: Config;
  database: Database;
  /** Secret that signs cookies; main.ts resolves it (from SESSION_SECRET or the data directory). */
  sessionSecret: string;
  /** Built browser app to serve (dist/web); absent in API-only tests. */
  webRoot?: string | undefined;
  logger?: FastifyServerOptions['logger'];
  rateLimits?: Partial<RateLimitSettings>;
  /**
   * Where the limiters count, replacing the store chosen by the config (the database, or Redis when
   * REDIS_URL is set); its owner then closes it.
   */
  rateCounts?: RateCounts;
  mailer?: Mailer;
  identity?: IdentityProvider;
  geocoder?: Geocoder;
  /** How push endpoints' names are resolved before they are checked; DNS by default. */
  resolveHost?: ResolveHost;
  /** The clock; defaults to the real time. */
  now?: () => Date;
  /** Replaces the store chosen by the config (its owner then closes it). */
  storage?: ObjectStorage;
  /** Replaces the payment provider chosen by the config. */
  payments?: PaymentProvider;
  /** Replaces the payout provider chosen by the config. */
  payouts?: PayoutProvider;
  /** How often unfinished payouts are retried after the run at start-up; 0 turns the job off. */
  payoutRetryMs?: number;
  /** How often an open event stream sends a heartbeat; tests shorten it. */
  liveHeartbeatMs?: number;
  /**
   * Renders a page's first screen into its HTML (docs/decisions/0014-first-load.md, The first screen
   * in the HTML); by default the built renderer beside webRoot (dist/ssr), if there is one.
   */
  firstScreen?: FirstScreenRenderer;
  /** Web Push's keys; main.ts resolves them (environment or the data directory), tests get a new pair. */
  vapid?: VapidKeys;
  /** The job queue's timings (docs/decisions/0021-durable-jobs.md); tests shorten them. */
  jobQueue?: Partial<JobQueueSettings>;
  /**
   * When the job queue starts: once the app is ready (tests, which never listen), or once it listens
   * (the server, src/server/main.ts: a start that cannot listen has taken no job run).
   */
  startJobs?: 'when-ready' | 'when-listening';
}

/**
 * SMTP when SMTP_URL is set; otherwise the log, the messages being kept in the outbox for the admin's
 * Mail tab (docs/decisions/0019-reaching-people.md, Mail).
 */
function createMailer(app: App, config: Config): Mailer {
  if (!config.smtpUrl) return new LogMailer(app.log);
  const mailer = new SmtpMailer(config.smtpUrl, config.mailFrom);
  app.addHook('onClose', async () => mailer.close());
  return mailer;
}

/**
 * Redis when REDIS_URL is set (docs/decisions/0003-rate-limits.md, Counted in Redis), its client
 * loaded only then; otherwise the database counts. Closed with the app.
 */
async function createRateCounts(
  app: App,
  config: Config,
  now: () => number,
): Promise<RedisRateCounts | undefined> {
  if (!config.redisUrl) return undefined;
  const { connectRedisRateCounts } = await import('./adapters/redis/redis-rate-counts');
  const counts = await connectRedisRateCounts(config.redisUrl, now, app.log);
  app.addHook('onClose', () => counts.close());
  return counts;
}

/** Builds the whole server without listening (tests inject into it). */
export async function buildApp(options: BuildOptions): Promise<App> {
  const { config, database } = options;
  const storage = options.storage ?? (await createObjectStorage(config, options.sessionSecret));
  const identityOrigin = config.oidc ? new URL(config.oidc.issuerUrl).origin : undefined;
  const securityHeaders = createSecurityHeaders({
    publicUrl: config.publicUrl,
    formActions: identityOrigin ? [identityOrigin] : [],
    // Pages PUT files straight to the store; images are always read back through this server.
    // With Stripe, the payment page loads Stripe.js, which frames Stripe and calls its API.
    connectSources: [
      ...(storage.uploadOrigin ? [storage.uploadOrigin] : []),
      ...(config.stripe ? ['https://api.stripe.com'] : []),
    ],
    scriptSources: config.stripe ? ['https://js.stripe.com'] : [],
    frameSources: config.stripe ? ['https://js.stripe.com', 'https://hooks.stripe.com'] : [],
  });
  const headerList = securityHeaderList(securityHeaders);
  let logClientError = (_message: string) => {};
  // Made below, once the app's logger exists; the server's listener replays its answers.
  const keptReads: { cache?: PublicAnswerCache; signedIn?: SignedInReplays } = {};
  const newRequestId = () => crypto.randomUUID();

  const app = Fastify({
    logger: withPrivateLogging(options.logger ?? false),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    genReqId: newRequestId,
    serverFactory: keptReadsServer(() => keptReads, newRequestId),
    requestIdHeader: false,
    // One line per answer at debug, none at the default info: an answer that failed is logged by
    // the error handler with its request id (docs/operations.md, Logs).
    logController: new LogController({ disableRequestLogging: true }),
    frameworkErrors: createFrameworkErrorHandler(headerList),
    clientErrorHandler: createClientErrorHandler(headerList, (message) => logClientError(message)),
  }).withTypeProvider<ZodTypeProvider>();
  logClientError = (message) => app.log.info(`client error ${message}`);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  app.addHook('onResponse', (request, reply, done) => {
    request.log.debug(
      { req: request, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime },
      'request completed',
    );
    done();
  });
  app.addHook('onSend', (request, reply, _payload, done) => {
    void reply.header('x-request-id', request.id);
    // Answers of guarded calls are personal (or an admin's): no shared cache may keep them.
    const url = request.routeOptions.url;
    if (
      request.url.startsWith('/api/') &&
      !reply.hasHeader('cache-control') &&
      (reply.statusCode >= 400 || !url || !isPublicRoute(request.method, url))
    ) {
      void reply.header('cache-control', 'no-store');
    }
    done();
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Local Delivery Marketplace API',
        version: '1.0.0',
        description: 'Every call of the marketplace. Errors answer {message, code, requestId, fields?}.',
        license: { name: 'Proprietary' },
      },
      // Without PUBLIC_URL the calls are relative to wherever the document was fetched from.
      servers: [{ url: config.publicUrl ?? '/' }],
      components: {
        securitySchemes: {
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: 'sid',
            description:
              'The session cookie set by signing in (POST /api/login or the OpenID Connect callback)',
          },
        },
      },
    },
    transform: openApiTransform,
  });

  if (!options.storage) app.addHook('onClose', () => storage.close());

  // Work that must finish even when nobody asks again runs as jobs in the database
  // (docs/decisions/0021-durable-jobs.md). The queue starts after the app is ready (or listens), so
  // start-up never waits for its tables; closing stops asking for runs and waits for those in progress.
  const jobs = new JobQueue(database, app.log, { ...DEFAULT_JOB_QUEUE_SETTINGS, ...options.jobQueue });
  app.decorate('jobs', jobs);
  const startJobs = async () => {
    if (jobs.hasJobs)
      void jobs.start().catch((error: unknown) => app.log.error({ err: error }, 'job queue did not start'));
  };
  if (options.startJobs === 'when-listening') app.addHook('onListen', startJobs);
  else app.addHook('onReady', startJobs);
  app.addHook('onClose', () => jobs.stop());

  // First of the hooks: a repeated public catalog call is answered from memory before the others
  // run (docs/decisions/0015-catalog-and-checkout-throughput.md).
  const now = options.now ?? (() => new Date());
  const rateCounts = options.rateCounts ?? (await createRateCounts(app, config, () => now().getTime()));
  const catalogCache = new PublicAnswerCache(database, app.log, {
    ...DEFAULT_PUBLIC_CACHE_OPTIONS,
    clock: () => now().getTime(),
  });
  keptReads.cache = catalogCache;
  registerPublicCache(app, catalogCache);
  registerSecurity(app, securityHeaders, config.publicUrl);
  registerCompression(app);
  await app.register(cookie, { secret: options.sessionSecret });
  await app.register(formbody, { bodyLimit: BODY_LIMIT_BYTES });
  // On PostgreSQL behind a fence (docs/decisions/0029-signed-in-reads-kept.md, The fence).
  const privateReads = new KeptPrivateReads(database, app.log);
  registerSessions(app, {
    db: database.db,
    secure: config.publicUrl?.startsWith('https://') ?? false,
    kept: privateReads,
  });
  // Signed-in reads of what is kept, answered before the other hooks and in the server's listener
  // (docs/decisions/0029-signed-in-reads-kept.md, Answered in the server's listener).
  const signedInReplays = new SignedInReplays(
    privateReads,
    {
      parse: (header) => app.parseCookie(header),
      unsign: (raw) => app.unsignCookie(raw),
    },
    app.log,
  );
  keptReads.signedIn = signedInReplays;
  registerSignedInReplays(app, signedInReplays);
  // Two-factor sign-in for administrators is the identity provider's business under OpenID Connect
  // (docs/decisions/0024-two-factor-sign-in.md).
  registerAccessControl(app, { adminNeedsTwoFactor: config.adminTwoFactor === 'required' && !config.oidc });
  registerInputGuard(app);

  const signingKey = crypto.createHmac('sha256', options.sessionSecret).update('signing key').digest();
  const payments = options.payments ?? (await createPaymentProvider(config, database.db));
  const payouts = options.payouts ?? (await createPayoutProvider(config, database.db, { signingKey, now }));
  const imageCopies = new ImageCopyMaker(storage, app.log);
  // Before any onClose hook closes the storage: the copy being made is finished, no other started.
  app.addHook('preClose', () => imageCopies.close());
  app.decorate('imageCopies', imageCopies);
  const settings: Omit<AppContext, 'ops'> = {
    db: database.db,
    config,
    mailer: options.mailer ?? createMailer(app, config),
    identity: options.identity ?? (config.oidc ? await createOidcIdentityProvider(config.oidc) : undefined),
    rateLimits: createRateLimits(
      { ...DEFAULT_RATE_LIMITS, ...options.rateLimits },
      () => now().getTime(),
      rateCounts,
    ),
    geocoder: options.geocoder ?? new ZipCentroidGeocoder(),
    resolveHost: options.resolveHost ?? resolveWithDns,
    signingKey,
    now,
    storage,
    imageCopies,
    payments,
    payouts,
    live: new LiveEventHub(database, app.log),
    catalogCache,
    privateReads,
    signedInReplays,
    vapid: options.vapid ?? config.vapid ?? generateVapidKeys(),
  };
  const ctx: AppContext = { ...settings, ops: buildOperations(settings) };
  // Live updates (docs/rules/live-updates.md, Live updates): listening starts with the app; open streams
  // end before the server stops taking connections, so closing never waits on them.
  app.addHook('onReady', () => ctx.live.start());
  app.addHook('onClose', () => ctx.live.stop());

  registerHealthRoutes(app, database, { rateCounts, keptReads: catalogCache });
  registerJobRoutes(app, ctx);
  registerAuthRoutes(app, ctx);
  registerUserRoutes(app, ctx);
  registerCatalogRoutes(app, ctx);
  registerSupportRoutes(app, ctx);
  registerAddressRoutes(app, ctx);
  registerUploadRoutes(app, ctx);
  registerAvailabilityRoutes(app, ctx);
  registerCheckoutRoutes(app, ctx);
  registerPaymentRoutes(app, ctx);
  registerOrderRoutes(app, ctx);
  registerDeliveryRoutes(app, ctx);
  registerCommissionRoutes(app, ctx);
  registerDeliveryProofRoutes(app, ctx);
  registerAdminRoutes(app, ctx);
  registerCategoryRoutes(app, ctx);
  registerProductRoutes(app, ctx);
  registerEarningsRoutes(app, ctx);
  registerMessageRoutes(app, ctx);
  registerReviewRoutes(app, ctx);
  registerPayoutAccountRoutes(app, ctx);
  registerEventRoutes(app, ctx, { heartbeatMs: options.liveHeartbeatMs });
  registerPayoutRoutes(app, ctx);
  registerRefundRoutes(app, ctx);
  registerDisputeRoutes(app, ctx);
  registerPayoutJobs(app, ctx, { everyMs: options.payoutRetryMs ?? ctx.config.payoutRetryIntervalMs });
  registerNotificationRoutes(app, ctx);
  registerNotificationJobs(app, ctx);
  registerPushRoutes(app, ctx);

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  if (options.webRoot) await serveWebApp(app, options.webRoot, ctx, options.firstScreen);
  return app;
}
