import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { loginQuerySchema, safeReturnTo, signInBodySchema, signUpBodySchema } from '../../../domain/auth';
import { currentUserSchema } from '../../../domain/users';
import { errorBodySchema } from '../../../domain/errors';
import { selfServiceRoleSchema } from '../../../domain/roles';
import { AppError, toErrorBody } from '../../platform/errors';
import { endSession, startSession } from '../../platform/sessions';
import { isSameSiteNavigation } from '../../platform/security';
import type { App, AppContext } from '../../platform/context';
import type { PendingSignIn } from '../../adapters/identity/identity-provider';
import { toCurrentUser } from '../users/users.service';
import { LOGIN_CSS, LOGIN_JS, renderAccountPage, renderLoginPage, type LoginPageState } from './login-page';
import { registerAccountRoutes } from './accounts.routes';
import { CONFIRM_EMAIL_FIRST, SIGN_UP_SENT, accountMessageSchema } from '../../../domain/accounts';
import { signInWithIdentity, signInWithPassword, signUpWithPassword } from './auth.service';
import { isFormPost, rawField } from './form-posts';
import { setPendingSignIn } from './pending-sign-in';
import { registerTwoFactorRoutes } from './two-factor.routes';
import { TWO_FACTOR_NEEDED, twoFactorNeededSchema } from '../../../domain/two-factor';
import { GENERIC_BAD_REQUEST, htmlPage, jsonOrPage, noBody } from '../../platform/openapi';

const OIDC_COOKIE = 'oidc_tx';
const htmlResponse = {
  200: htmlPage('The sign-in page'),
  302: noBody('Already signed in: a redirect to returnTo (a page of this site) or the dashboard'),
};
/** The sign-in and sign-up forms post here too: a form gets the page again with the problem. */
const FORM_OR_JSON = ['application/json', 'application/x-www-form-urlencoded'];
const formRefusal = (description: string) => jsonOrPage(description, errorBodySchema);
const FORM_BAD_REQUEST = formRefusal(`${GENERIC_BAD_REQUEST}; a form gets the page with the problem`);

/** Where a signed-in user goes next: the asked-for page, or the driver dashboard after Become a Driver. */
function landingAfterSignIn(returnTo: unknown, intent: string | undefined): string {
  const target = safeReturnTo(returnTo);
  if (target === '/' && intent === 'driver') return '/driver/dashboard';
  if (target === '/' && intent === 'seller') return '/seller/dashboard';
  return target;
}

function intentOf(value: unknown): 'seller' | 'driver' | undefined {
  const parsed = selfServiceRoleSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

export function registerAuthRoutes(app: App, ctx: AppContext): void {
  const { db, config } = ctx;

  app.get('/api/login/assets/login.css', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(LOGIN_CSS),
  );
  app.get('/api/login/assets/login.js', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(LOGIN_JS),
  );

  app.post(
    '/api/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign out: ends the session (refused from another site)',
        response: { 204: z.null().describe('Signed out'), 403: errorBodySchema },
      },
    },
    async (request, reply) => {
      await endSession(app, db, request, reply);
      return reply.status(204).send(null);
    },
  );

  // The header's Log Out is a full-page navigation (docs/rules/accounts.md, Sessions and sign-in), so a
  // GET stays; a page of another site must not sign the user out by linking here.
  app.get(
    '/api/logout',
    {
      schema: {
        // A page navigation, not an API call: clients use the POST.
        hide: true,
        tags: ['auth'],
        summary: 'Sign out by navigation from this site: ends the session and returns to /',
        response: { 302: z.null().describe('Redirect to /'), 403: errorBodySchema },
      },
    },
    async (request, reply) => {
      if (!isSameSiteNavigation(request, config.publicUrl)) {
        throw new AppError('forbidden', 'Sign out from a page of this site.');
      }
      await endSession(app, db, request, reply);
      return reply.redirect('/', 302);
    },
  );

  if (ctx.identity) {
    registerOidcRoutes(app, ctx);
    return;
  }

  registerAccountRoutes(app, ctx);
  registerTwoFactorRoutes(app, ctx, landingAfterSignIn);

  const renderPage = (reply: FastifyReply, status: number, state: LoginPageState) =>
    reply
      .status(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(renderLoginPage(state));

  app.get(
    '/api/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'The sign-in page with "create account" (local accounts)',
        querystring: loginQuerySchema,
        response: htmlResponse,
      },
    },
    async (request, reply) => {
      const { returnTo, intent, mode } = request.query;
      const actor = await request.getActor();
      if (actor) return reply.redirect(landingAfterSignIn(returnTo, intent), 302);
      return renderPage(reply, 200, { mode: mode ?? 'signin', returnTo: safeReturnTo(returnTo), intent });
    },
  );

  /**
   * Sign-in and sign-up take a form (the page above) or JSON. A form gets the page again with the
   * problem, or a redirect; JSON gets the error body, or the user with the session cookie.
   */
  const handleAuthPost =
    (mode: 'signin' | 'signup') =>
    async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const form = isFormPost(request);
      const returnTo = safeReturnTo(rawField(request.body, 'returnTo'));
      const intent = intentOf(rawField(request.body, 'intent'));
      const values = {
        email: rawField(request.body, 'email'),
        firstName: rawField(request.body, 'firstName'),
        lastName: rawField(request.body, 'lastName'),
      };
      try {
        if (request.validationError) throw request.validationError;
        if (mode === 'signup') {
          // The same answer whether the address has an account or not
          // (docs/decisions/0019-reaching-people.md, Accounts).
          await signUpWithPassword(
            db,
            signUpBodySchema.parse(request.body),
            ctx.rateLimits,
            request.ip,
            config.adminEmails,
            landingAfterSignIn(returnTo, intent),
          );
          if (form)
            await reply
              .status(202)
              .type('text/html; charset=utf-8')
              .header('cache-control', 'no-store')
              .send(renderAccountPage({ page: 'sent', title: 'Check your email', message: SIGN_UP_SENT }));
          else await reply.status(202).send({ message: SIGN_UP_SENT });
          return;
        }
        const { user, needsSecondFactor } = await signInWithPassword(
          db,
          signInBodySchema.parse(request.body),
          ctx.rateLimits,
          request.ip,
          config.adminEmails,
        );
        if (needsSecondFactor) {
          // The code step is next; no session yet (docs/decisions/0024-two-factor-sign-in.md).
          setPendingSignIn(app, reply, ctx.now(), { userId: user.id, returnTo, intent });
          if (form) await reply.redirect('/api/login/two-factor', 303);
          else await reply.status(202).send({ twoFactorRequired: true, message: TWO_FACTOR_NEEDED });
          return;
        }
        await startSession(app, db, request, reply, user.id);
        if (form) await reply.redirect(landingAfterSignIn(returnTo, intent), 303);
        else await reply.status(200).send(toCurrentUser(user));
      } catch (error) {
        if (!form) throw error;
        const { status, body } = toErrorBody(error, request.id);
        if (status >= 500) throw error;
        await renderPage(reply, status, {
          mode,
          returnTo,
          intent,
          error: body.fields ? 'Please correct the highlighted fields.' : body.message,
          fields: body.fields,
          values,
          // The right password of an account not confirmed yet: offer a new link.
          resendEmail: body.message === CONFIRM_EMAIL_FIRST ? values.email : undefined,
        });
      }
    };

  app.post(
    '/api/login',
    {
      attachValidation: true,
      schema: {
        tags: ['auth'],
        summary: 'Sign in with email and password (form or JSON)',
        consumes: FORM_OR_JSON,
        body: signInBodySchema,
        response: {
          200: currentUserSchema,
          202: twoFactorNeededSchema.describe(
            'The password is right; the code step is next (POST /api/login/two-factor)',
          ),
          303: noBody(
            'A form signed in: a redirect to returnTo (a page of this site) or the dashboard; with two-factor sign-in on, to the code page',
          ),
          400: FORM_BAD_REQUEST,
          401: formRefusal('A wrong email or password'),
          403: formRefusal('An account not confirmed yet, or suspended'),
          429: formRefusal('Too many sign-in attempts: try again later'),
        },
      },
    },
    handleAuthPost('signin'),
  );

  app.post(
    '/api/signup',
    {
      attachValidation: true,
      schema: {
        tags: ['auth'],
        summary: 'Create an account with email and password (form or JSON)',
        consumes: FORM_OR_JSON,
        body: signUpBodySchema,
        response: {
          202: jsonOrPage(
            'The mail is sent (the same answer whether the address had an account)',
            accountMessageSchema,
          ),
          400: FORM_BAD_REQUEST,
          429: formRefusal('Too many sign-ups from this address: try again later'),
        },
      },
    },
    handleAuthPost('signup'),
  );
}

function registerOidcRoutes(app: App, ctx: AppContext): void {
  const identity = ctx.identity;
  if (!identity) return;
  const { db, config } = ctx;
  const callbackUrl = (request: FastifyRequest) =>
    `${config.publicUrl ?? `${request.protocol}://${request.host}`}/api/callback`;

  app.get(
    '/api/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in through the OpenID Connect provider (redirect)',
        querystring: loginQuerySchema,
        response: { 302: z.null() },
      },
    },
    async (request, reply) => {
      const { returnTo, intent } = request.query;
      const actor = await request.getActor();
      if (actor) return reply.redirect(landingAfterSignIn(returnTo, intent), 302);
      let begun;
      try {
        begun = await identity.beginSignIn(callbackUrl(request));
      } catch (error) {
        request.log.error({ err: error }, 'identity provider unreachable');
        throw new AppError(
          'unavailable',
          'Sign-in is unavailable right now: the identity provider cannot be reached.',
        );
      }
      const pending: PendingSignIn = { ...begun.pending, returnTo: safeReturnTo(returnTo), intent };
      void reply.setCookie(OIDC_COOKIE, JSON.stringify(pending), {
        httpOnly: true,
        sameSite: 'lax',
        secure: app.sessionCookieOptions.secure,
        path: '/api/callback',
        signed: true,
        maxAge: 600,
      });
      return reply.redirect(begun.url, 302);
    },
  );

  app.get(
    '/api/callback',
    {
      schema: {
        tags: ['auth'],
        summary: 'Where the OpenID Connect provider returns after sign-in',
        querystring: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
        response: { 302: z.null() },
      },
    },
    async (request, reply) => {
      // The person cancelled or the provider refused: back to the marketplace, signed out.
      if (request.query.error !== undefined) {
        void reply.clearCookie(OIDC_COOKIE, { path: '/api/callback' });
        return reply.redirect('/', 302);
      }
      const raw = request.cookies[OIDC_COOKIE];
      const unsigned = raw ? request.unsignCookie(raw) : undefined;
      if (!unsigned?.valid || !unsigned.value) {
        throw new AppError('bad_request', 'This sign-in link has expired. Please sign in again.');
      }
      let pending: PendingSignIn;
      try {
        pending = JSON.parse(unsigned.value) as PendingSignIn;
      } catch {
        throw new AppError('bad_request', 'This sign-in link has expired. Please sign in again.');
      }
      void reply.clearCookie(OIDC_COOKIE, { path: '/api/callback' });
      const url = new URL(request.url, callbackUrl(request));
      let claims;
      try {
        claims = await identity.completeSignIn(
          new URL(url.pathname + url.search, callbackUrl(request)),
          pending,
        );
      } catch (error) {
        request.log.warn({ err: error }, 'OIDC callback rejected');
        throw new AppError('unauthorized', 'Sign-in failed. Please try again.');
      }
      const user = await signInWithIdentity(db, claims, pending.intent, config.adminEmails);
      await startSession(app, db, request, reply, user.id);
      return reply.redirect(landingAfterSignIn(pending.returnTo, pending.intent), 302);
    },
  );
}
