import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Role } from '../../domain/roles';
import { TWO_FACTOR_SETUP_REQUIRED_MESSAGE } from '../../domain/two-factor';
import { AppError } from './errors';
import type { Actor } from './sessions';

/**
 * Deny by default (docs/decisions/0011-deny-by-default.md): every `/api` call needs a session
 * unless its route is in this list. A route that is not here is closed to visitors the day it is
 * added; the generated authorization tests read this list to know which answers to expect.
 * Keys are `METHOD /path` exactly as the route is registered (HEAD follows its GET).
 */
export const PUBLIC_ROUTES: ReadonlySet<string> = new Set([
  'GET /api/health',
  'GET /api/ready',
  'GET /api/openapi.json',
  // Signing in and out (docs/rules/accounts.md, Sessions and sign-in).
  'GET /api/login',
  'POST /api/login',
  // The code step of a sign-in with two factors (docs/decisions/0024-two-factor-sign-in.md).
  'GET /api/login/two-factor',
  'POST /api/login/two-factor',
  'GET /api/login/assets/login.css',
  'GET /api/login/assets/login.js',
  'POST /api/signup',
  // A forgotten password and a mailed link (docs/decisions/0019-reaching-people.md, Accounts).
  'GET /api/forgot-password',
  'POST /api/forgot-password',
  'GET /api/reset-password',
  'POST /api/reset-password',
  'GET /api/verify-email',
  'POST /api/resend-verification',
  'GET /api/callback',
  'GET /api/logout',
  'POST /api/logout',
  // What visitors may read (docs/rules/accounts.md, Roles and permissions).
  'GET /api/categories',
  'GET /api/products',
  'GET /api/products/:id',
  'GET /api/products/:id/images',
  'GET /api/users/:id',
  // A profile's reviews, like the profile (docs/rules/selling.md, Reviews and messages).
  'GET /api/reviews/user/:id',
  'GET /api/availability/slots/:sellerId',
  'GET /api/commission-settings',
  'POST /api/contact',
  // Callers that prove themselves otherwise: Stripe by its signature, uploads by a presigned URL.
  'POST /api/stripe/webhook',
  'POST /api/stripe/connect/webhook',
  'PUT /api/objects/local/uploads/:id',
]);

/** What a route declares in its options: `config: { roles: ['admin'] }`. */
export interface RouteAccess {
  /** The caller needs one of these among their granted roles, else 403. */
  roles?: readonly Role[];
  /** The 403 message when a role is missing; names what is needed. */
  forbiddenMessage?: string;
}

/** One registered route as the access hook sees it; the generated attack tests walk this table. */
export interface RouteEntry {
  method: string;
  url: string;
  isPublic: boolean;
  roles: readonly Role[] | undefined;
  /** Whether the route declares a body schema (the fuzz pass then sends malformed bodies). */
  hasBody: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered, in order (HEAD routes that follow a GET are left out). */
    routeTable: RouteEntry[];
  }
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged with RouteAccess
  interface FastifyContextConfig extends RouteAccess {}
  interface FastifyRequest {
    /** The signed-in user on a guarded route, set by the access hook; null on public routes. */
    actor: Actor | null;
    /**
     * The caller holds the admin role but must turn on two-factor sign-in first: until then they
     * count without it (docs/decisions/0024-two-factor-sign-in.md).
     */
    twoFactorSetupRequired: boolean;
  }
}

export interface AccessOptions {
  /** ADMIN_TWO_FACTOR=required with local accounts: admin powers wait for the second factor. */
  adminNeedsTwoFactor: boolean;
}

/** The user as they count until they turn on two-factor sign-in: every role but admin. */
function withoutAdminRole(actor: Actor): Actor {
  return Object.freeze({
    ...actor,
    roles: actor.roles.filter((role) => role !== 'admin'),
    role: actor.role === 'admin' ? 'buyer' : actor.role,
  });
}

/**
 * An administrator without a second factor where one is required keeps their account but not its
 * powers (docs/decisions/0024-two-factor-sign-in.md): every part of the server that asks for the
 * request's user, guarded or public (a private file's reader), gets them without the admin role.
 */
function holdAdminPowers(request: FastifyRequest): void {
  const load = request.getActor;
  let held: Promise<Actor | null> | undefined;
  request.getActor = () => {
    held ??= load().then((actor) => {
      if (!actor || actor.twoFactorEnabledAt !== null || !actor.roles.includes('admin')) return actor;
      request.twoFactorSetupRequired = true;
      return withoutAdminRole(actor);
    });
    return held;
  };
}

export function routeKey(method: string, url: string): string {
  return `${method === 'HEAD' ? 'GET' : method} ${url}`;
}

export function isPublicRoute(method: string, url: string): boolean {
  return PUBLIC_ROUTES.has(routeKey(method, url));
}

/** `You need the seller or admin role for this.` */
export function missingRoleMessage(roles: readonly Role[]): string {
  return `You need the ${roles.join(' or ')} role for this.`;
}

/** Only /api is guarded here; pages and uploaded images decide for themselves. */
function isGuardedPath(url: string | undefined): url is string {
  return url !== undefined && url.startsWith('/api/');
}

/** The one place that decides whether a call may reach its handler at all. */
export function registerAccessControl(app: FastifyInstance, options: AccessOptions): void {
  const table: RouteEntry[] = [];
  app.decorate('routeTable', table);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD' && route.method !== 'HEAD') continue;
      if (method === 'HEAD' && table.some((entry) => entry.method === 'GET' && entry.url === route.url))
        continue;
      table.push({
        method,
        url: route.url,
        isPublic: isPublicRoute(method, route.url),
        roles: route.config?.roles,
        hasBody: Boolean(route.schema?.body),
      });
    }
  });
  app.decorateRequest('actor', null);
  app.decorateRequest('twoFactorSetupRequired', false);
  // Public calls pass without a promise; guarded ones wait for the session's user.
  app.addHook('onRequest', (request, _reply, done) => {
    if (options.adminNeedsTwoFactor) holdAdminPowers(request);
    const url = request.routeOptions.url;
    if (!isGuardedPath(url) || isPublicRoute(request.method, url)) {
      done();
      return;
    }
    admit(request).then(
      () => done(),
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
  });
}

/** A guarded call: the caller must be signed in and hold one of the route's roles. */
async function admit(request: FastifyRequest): Promise<void> {
  const actor = await request.getActor();
  if (!actor) throw new AppError('unauthorized', 'Unauthorized');
  const { roles, forbiddenMessage } = request.routeOptions.config;
  if (roles && !roles.some((role) => actor.roles.includes(role))) {
    // Said plainly, so the browser sends the administrator to the setup.
    if (request.twoFactorSetupRequired && roles.includes('admin'))
      throw new AppError('two_factor_setup_required', TWO_FACTOR_SETUP_REQUIRED_MESSAGE);
    throw new AppError('forbidden', forbiddenMessage ?? missingRoleMessage(roles));
  }
  request.actor = actor;
}

/** The caller of a guarded route: the access hook has already refused visitors. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError('unauthorized', 'Unauthorized');
  return request.actor;
}
