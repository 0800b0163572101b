import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Fastify, { type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config, OidcConfig } from './config';
import type { Database } from './db/client';
import { LogMailer, type Mailer } from './adapters/mail/mailer';
import type { IdentityProvider } from './adapters/identity/identity-provider';
import type { Geocoder } from './adapters/geocoding/geocoder';
import { ZipCentroidGeocoder } from './adapters/geocoding/zip-centroid-geocoder';
import type { ObjectStorage } from './adapters/storage/object-storage';
import { createObjectStorage } from './adapters/storage/create-object-storage';
import type { PaymentProvider } from './adapters/payments/payment-provider';
import type { PayoutProvider } from './adapters/payouts/payout-provider';
import { createPayoutProvider } from './adapters/payouts/create-payout-provider';
import { TestPaymentProvider } from './adapters/payments/test-payment-provider';
import type { App, AppContext } from './platform/context';
import { registerAccessControl, isPublicRoute } from './platform/access';
import { registerErrorHandling } from './platform/errors';
import { registerInputGuard } from './platform/input-guard';
import { withPrivateLogging } from './platform/logging';
import { openApiTransform } from './platform/openapi';
import { createClientErrorHandler, createFrameworkErrorHandler } from './platform/raw-errors';
import { createRateLimits, DEFAULT_RATE_LIMITS, type RateLimitSettings } from './platform/rate-limit';
import { createSecurityHeaders, registerSecurity, securityHeaderList } from './platform/security';
import { registerCompression } from './platform/compression';
import {
  renderIndexHtml,
  summarise,
  withFirstScreen,
  type FirstScreenMarkup,
  type PageMeta,
} from './platform/index-html';
import { registerSessions } from './platform/sessions';
import { LiveEventHub } from './platform/live-event-hub';
import { PublicAnswerCache, isNotModified, registerPublicCache } from './platform/public-cache';
import { registerAddressRoutes } from './modules/addresses/addresses.routes';
import { registerAdminRoutes } from './modules/admin/admin.routes';
import { registerAuthRoutes } from './modules/auth/auth.routes';
import { registerAvailabilityRoutes } from './modules/availability/availability.routes';
import { registerCatalogRoutes } from './modules/catalog/catalog.routes';
import { registerCategoryRoutes } from './modules/categories/categories.routes';
import { registerCheckoutRoutes } from './modules/checkout/checkout.routes';
import { registerCommissionRoutes } from './modules/commission/commission.routes';
import { registerDeliveryRoutes } from './modules/deliveries/deliveries.routes';
import { registerEarningsRoutes } from './modules/earnings/earnings.routes';
import { registerEventRoutes } from './modules/events/events.routes';
import { registerMessageRoutes } from './modules/messages/messages.routes';
import { registerReviewRoutes } from './modules/reviews/reviews.routes';
import { registerOrderRoutes } from './modules/orders/orders.routes';
import { registerPaymentRoutes } from './modules/payments/payments.routes';
import { PAYOUT_RETRY_MS, registerPayoutJobs } from './modules/payouts/payout-jobs';
import { registerPayoutRoutes } from './modules/payouts/payouts.routes';
import { registerPayoutAccountRoutes } from './modules/payout-accounts/payout-accounts.routes';
import { registerProductRoutes } from './modules/products/products.routes';
import { registerHealthRoutes } from './modules/health/health.routes';
import { registerSupportRoutes } from './modules/support/support.routes';
import { registerUploadRoutes } from './modules/uploads/uploads.routes';
import { registerUserRoutes } from './modules/users/users.routes';
import { getProduct } from './modules/catalog/catalog.service';
import { AppError } from './platform/errors';
import { idSchema } from '../domain/users';
import { formatMoney } from '../domain/money';
import { COMPANY } from '../domain/support';

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
  mailer?: Mailer;
  identity?: IdentityProvider;
  geocoder?: Geocoder;
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
}

/** What src/web/entry-server.tsx exports (the server cannot import the browser's code). */
export interface FirstScreenRenderer {
  renderFirstScreen(request: {
    path: string;
    search: string;
    timeZone: string;
    get: (url: string) => Promise<{ status: number; headers: Record<string, string>; body: string }>;
  }): Promise<FirstScreenMarkup>;
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

  const app = Fastify({
    logger: withPrivateLogging(options.logger ?? false),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: false,
    frameworkErrors: createFrameworkErrorHandler(headerList),
    clientErrorHandler: createClientErrorHandler(headerList, (message) => logClientError(message)),
  }).withTypeProvider<ZodTypeProvider>();
  logClientError = (message) => app.log.info(`client error ${message}`);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
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

  // First of the hooks: a repeated public catalog call is answered from memory before the others
  // run (docs/decisions/0015-catalog-and-checkout-throughput.md).
  const catalogCache = new PublicAnswerCache(database, app.log);
  registerPublicCache(app, catalogCache);
  registerSecurity(app, securityHeaders, config.publicUrl);
  registerCompression(app);
  await app.register(cookie, { secret: options.sessionSecret });
  await app.register(formbody, { bodyLimit: BODY_LIMIT_BYTES });
  registerSessions(app, { db: database.db, secure: config.publicUrl?.startsWith('https://') ?? false });
  registerAccessControl(app);
  registerInputGuard(app);

  const signingKey = crypto.createHmac('sha256', options.sessionSecret).update('signing key').digest();
  const now = options.now ?? (() => new Date());
  const ctx: AppContext = {
    db: database.db,
    config,
    mailer: options.mailer ?? new LogMailer(app.log),
    identity: options.identity ?? (config.oidc ? await createOidcIdentityProvider(config.oidc) : undefined),
    rateLimits: createRateLimits({ ...DEFAULT_RATE_LIMITS, ...options.rateLimits }),
    geocoder: options.geocoder ?? new ZipCentroidGeocoder(),
    signingKey,
    now,
    storage,
    payments: options.payments ?? (await createPaymentProvider(config, database.db)),
    payouts: options.payouts ?? (await createPayoutProvider(config, database.db, { signingKey, now })),
    live: new LiveEventHub(database, app.log),
    catalogCache,
  };
  // Live updates (docs/product-rules.md, Live updates): listening starts with the app; open streams
  // end before the server stops taking connections, so closing never waits on them.
  app.addHook('onReady', () => ctx.live.start());
  app.addHook('onClose', () => ctx.live.stop());

  registerHealthRoutes(app, database.ping);
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
  registerAdminRoutes(app, ctx);
  registerCategoryRoutes(app, ctx);
  registerProductRoutes(app, ctx);
  registerEarningsRoutes(app, ctx);
  registerMessageRoutes(app, ctx);
  registerReviewRoutes(app, ctx);
  registerPayoutAccountRoutes(app, ctx);
  registerEventRoutes(app, ctx, { heartbeatMs: options.liveHeartbeatMs });
  registerPayoutRoutes(app, ctx);
  registerPayoutJobs(app, ctx, { everyMs: options.payoutRetryMs ?? PAYOUT_RETRY_MS });

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  if (options.webRoot) await serveWebApp(app, options.webRoot, ctx, options.firstScreen);
  return app;
}

/**
 * Stripe when its keys are set, else the built-in test provider with its ledger in the database
 * (docs/product-rules.md, Running modes and adapters). Stripe's SDK is loaded only then
 * (docs/decisions/0016-embedded-database-process.md, Memory).
 */
async function createPaymentProvider(config: Config, db: Database['db']): Promise<PaymentProvider> {
  if (!config.stripe) return new TestPaymentProvider(db);
  const { StripePaymentProvider } = await import('./adapters/payments/stripe-payment-provider');
  return new StripePaymentProvider(config.stripe);
}

/** Sign-in through OpenID Connect when configured; openid-client is loaded only then. */
async function createOidcIdentityProvider(settings: OidcConfig): Promise<IdentityProvider> {
  const { OidcIdentityProvider } = await import('./adapters/identity/oidc-identity-provider');
  return new OidcIdentityProvider(settings);
}

const PRODUCT_PAGE = /^\/products\/([^/]+)\/?$/;

/**
 * What a shared product link previews as (docs/product-rules.md, Routes and headers): its name,
 * price, seller and description, and its picture. Undefined for a path that is not a known product.
 */
async function productPageMeta(
  request: FastifyRequest,
  urlPath: string,
  { db, config }: Pick<AppContext, 'db' | 'config'>,
): Promise<PageMeta | undefined> {
  const id = PRODUCT_PAGE.exec(urlPath)?.[1];
  if (!id || !idSchema.safeParse(id).success) return undefined;
  let product;
  try {
    product = await getProduct(db, null, id);
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') return undefined;
    throw error;
  }
  const base = config.publicUrl ?? `${request.protocol}://${request.host}`;
  const about = product.description?.trim();
  const lead = `${formatMoney(product.price)} from ${product.sellerName}.`;
  return {
    title: `${product.name} · ${COMPANY.name}`,
    description: summarise(about ? `${lead} ${about}` : lead),
    imageUrl: product.imageUrl ? new URL(product.imageUrl, `${base}/`).href : null,
    url: `${base}/products/${id}`,
    type: 'product',
    preloadImage: product.imageUrl,
  };
}

/**
 * Serves the built browser app; any unknown non-API GET gets index.html (the client routes it),
 * with the marketplace time zone, and a product's own title, description and picture on its page.
 */
async function serveWebApp(
  app: App,
  webRoot: string,
  ctx: Pick<AppContext, 'db' | 'config' | 'catalogCache'>,
  firstScreen?: FirstScreenRenderer,
): Promise<void> {
  const indexPath = path.join(webRoot, 'index.html');
  if (!fs.existsSync(indexPath))
    throw new Error(`The browser app is not built: ${indexPath} is missing (run npm run build)`);
  const template = fs.readFileSync(indexPath, 'utf8');
  const plainIndex = renderIndexHtml(template, { timeZone: ctx.config.marketplaceTz });
  const renderer = firstScreen ?? (await loadBuiltRenderer(webRoot));
  /** index.html filled in for this address: a product's page has its own title and preview. */
  const indexFor = async (request: FastifyRequest, urlPath: string) => {
    const meta = await productPageMeta(request, urlPath, ctx);
    return meta ? renderIndexHtml(template, { timeZone: ctx.config.marketplaceTz, meta }) : plainIndex;
  };
  /** The page with its first screen; keepable when any visitor would be sent the same bytes. */
  const renderPage = async (request: FastifyRequest, urlPath: string, rendering: FirstScreenRenderer) => {
    const html = await indexFor(request, urlPath);
    const screen = await renderFirstScreenOf(app, rendering, request, urlPath, ctx);
    if (!screen) return { body: Buffer.from(html), keepable: false };
    const page = withFirstScreen(html, screen.markup, { preload: html === plainIndex });
    return { body: Buffer.from(page), keepable: screen.sameForEveryVisitor };
  };
  const sendPage = async (request: FastifyRequest, reply: FastifyReply, urlPath: string) => {
    if (!renderer || !FIRST_SCREEN_PAGES.some((page) => page.test(urlPath))) {
      return sendIndex(reply, await indexFor(request, urlPath));
    }
    reply.type('text/html; charset=utf-8');
    // The page holds the caller's own data when signed in: never kept, here or by a shared cache.
    if (request.headers.cookie !== undefined) {
      const { body } = await renderPage(request, urlPath, renderer);
      return reply.header('cache-control', 'private, no-store').send(body);
    }
    // A visitor's page is made of public catalog answers only: kept with them, and dropped with them
    // when the catalog changes (docs/decisions/0014-first-load.md, The first screen in the HTML).
    const key = `page ${request.protocol}://${request.host}${request.url}`;
    const page = await ctx.catalogCache.answerIfKeepable(key, () => renderPage(request, urlPath, renderer));
    void reply.header('cache-control', 'no-cache').header('etag', page.etag);
    if (isNotModified(request.headers['if-none-match'], page.etag)) return reply.code(304).send();
    return reply.send(page.body);
  };
  await app.register(fastifyStatic, {
    root: webRoot,
    wildcard: false,
    index: false,
    // index.html always goes out filled in (below), never as the bare file; the .br and .gz copies
    // made at build time are not files of their own but answers to an Accept-Encoding
    // (docs/decisions/0014-first-load.md).
    globIgnore: ['index.html', '**/*.br', '**/*.gz'],
    preCompressed: true,
    setHeaders: (res, filePath) => {
      const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
      void res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const sendIndex = (reply: FastifyReply, html = plainIndex) =>
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
  app.get('/', { schema: { hide: true } }, (request, reply) => sendPage(request, reply, '/'));
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const urlPath = decodeURIComponent(request.url.split('?')[0] ?? '/');
    if (urlPath.startsWith('/api/')) {
      return reply.status(404).send({ message: 'Not found', code: 'not_found', requestId: request.id });
    }
    const filePath = path.join(webRoot, path.normalize(urlPath));
    if (filePath === indexPath) return sendIndex(reply);
    if (
      filePath.startsWith(webRoot + path.sep) &&
      !/\.(?:br|gz)$/.test(filePath) &&
      fs.existsSync(filePath) &&
      fs.statSync(filePath).isFile()
    ) {
      return reply.sendFile(path.relative(webRoot, filePath));
    }
    // A missing file (script, image) is a 404; any other path is a page of the browser app.
    if (/\.[a-z0-9]+$/i.test(urlPath)) {
      return reply.status(404).send({ message: 'Not found', code: 'not_found', requestId: request.id });
    }
    return sendPage(request, reply, urlPath);
  });
}

/**
 * The pages whose first screen is rendered on the server (docs/decisions/0014-first-load.md, The
 * first screen in the HTML): the landing or home, a product, checkout. Every other page is rendered
 * in the browser, as before.
 */
const FIRST_SCREEN_PAGES = [/^\/$/, /^\/products\/[^/]+\/?$/, /^\/checkout\/?$/];

/** The request headers an API call made for the page carries: who the caller is and where from. */
const FORWARDED_HEADERS = [
  'cookie',
  'host',
  'user-agent',
  'accept-language',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
] as const;

/** The built renderer (dist/ssr/entry-server.js beside dist/web), or none. */
export async function loadBuiltRenderer(webRoot: string): Promise<FirstScreenRenderer | undefined> {
  const file = path.join(webRoot, '..', 'ssr', 'entry-server.js');
  if (!fs.existsSync(file)) return undefined;
  // The renderer's module is what src/web/entry-server.tsx exports: checked by its shape.
  const loaded: unknown = await import(pathToFileURL(file).href);
  if (typeof loaded === 'object' && loaded !== null && 'renderFirstScreen' in loaded) {
    return loaded as FirstScreenRenderer;
  }
  return undefined;
}

/**
 * The page's first screen as this caller sees it: the renderer's API calls go through this server's
 * own routes with the caller's headers and address (app.inject), so permissions, private data and
 * rate limits are exactly those of the caller's own calls. Undefined, and the page is rendered in
 * the browser, when the render fails.
 */
async function renderFirstScreenOf(
  app: App,
  renderer: FirstScreenRenderer,
  request: FastifyRequest,
  urlPath: string,
  { config }: Pick<AppContext, 'config'>,
): Promise<{ markup: FirstScreenMarkup; sameForEveryVisitor: boolean } | undefined> {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const query = request.url.indexOf('?');
  // A call refused for this caller's rate or failed on the server leaves its part loading: such a
  // page is sent but not kept for other visitors.
  let sameForEveryVisitor = true;
  try {
    const markup = await renderer.renderFirstScreen({
      path: urlPath,
      search: query === -1 ? '' : request.url.slice(query + 1),
      timeZone: config.marketplaceTz,
      get: async (url) => {
        const answer = await app.inject({
          method: 'GET',
          url,
          headers,
          remoteAddress: request.socket.remoteAddress ?? request.ip,
        });
        if (answer.statusCode === 429 || answer.statusCode >= 500) sameForEveryVisitor = false;
        const contentType = answer.headers['content-type'];
        const answerHeaders: Record<string, string> = {};
        if (typeof contentType === 'string') answerHeaders['content-type'] = contentType;
        return { status: answer.statusCode, headers: answerHeaders, body: answer.body };
      },
    });
    return { markup, sameForEveryVisitor };
  } catch (error) {
    request.log.warn({ err: error, url: urlPath }, 'the first screen was not rendered on the server');
    return undefined;
  }
}
