import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { currentUserSchema } from '../../../domain/users';
import { errorBodySchema } from '../../../domain/errors';
import {
  PASSWORD_OR_CODE_NEEDED,
  SIGN_IN_CODE_EXPIRED,
  WRONG_PASSWORD_OR_CODE,
  WRONG_TWO_FACTOR_CODE,
  disableTwoFactorBodySchema,
  enableTwoFactorBodySchema,
  signInCodeBodySchema,
  twoFactorEnabledSchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
} from '../../../domain/two-factor';
import { AppError, toErrorBody } from '../../platform/errors';
import { refusedWith } from '../../platform/openapi';
import { actorOf } from '../../platform/access';
import { startSession } from '../../platform/sessions';
import { tooManyRequests, waitText } from '../../platform/rate-limit';
import type { App, AppContext } from '../../platform/context';
import { toCurrentUser } from '../users/users.service';
import { finishSignIn } from './auth.service';
import { isFormPost } from './form-posts';
import { renderTwoFactorPage } from './login-page';
import { clearPendingSignIn, readPendingSignIn } from './pending-sign-in';
import {
  disableTwoFactor,
  enableTwoFactor,
  getTwoFactorStatus,
  startTwoFactorSetup,
  verifySignInCode,
} from './two-factor.service';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  409: errorBodySchema,
  429: errorBodySchema,
};

/**
 * Two-factor sign-in of local accounts (docs/decisions/0024-two-factor-sign-in.md): its setup and
 * removal from the profile, and the code step of a sign-in. Under OpenID Connect the identity
 * provider asks for factors and none of this is registered.
 */
export function registerTwoFactorRoutes(
  app: App,
  ctx: AppContext,
  landingAfterSignIn: (returnTo: unknown, intent: string | undefined) => string,
): void {
  const { db, config } = ctx;
  const deps = ctx.ops.twoFactor;

  app.get(
    '/api/auth/two-factor',
    {
      schema: {
        tags: ['auth'],
        summary: 'Whether two-factor sign-in is on, how many recovery codes are left (never the secret)',
        response: { 200: twoFactorStatusSchema, 401: errorBodySchema },
      },
    },
    async (request) => getTwoFactorStatus(deps, actorOf(request), request.twoFactorSetupRequired),
  );

  app.post(
    '/api/auth/two-factor/setup',
    {
      schema: {
        tags: ['auth'],
        summary: 'Starts the setup: a new secret, shown this once as text and as a QR code (SVG data URL)',
        response: { 200: twoFactorSetupSchema, ...errors },
      },
    },
    async (request) => startTwoFactorSetup(deps, actorOf(request)),
  );

  app.post(
    '/api/auth/two-factor/enable',
    {
      schema: {
        tags: ['auth'],
        summary: 'Turns it on with a current code of the app; answers 10 recovery codes, shown this once',
        body: enableTwoFactorBodySchema,
        response: { 200: twoFactorEnabledSchema, ...errors, 400: refusedWith([WRONG_TWO_FACTOR_CODE]) },
      },
    },
    async (request) => ({ recoveryCodes: await enableTwoFactor(deps, actorOf(request), request.body.code) }),
  );

  app.post(
    '/api/auth/two-factor/disable',
    {
      schema: {
        tags: ['auth'],
        summary: 'Turns it off with the password or a current code of the app',
        body: disableTwoFactorBodySchema,
        response: {
          204: z.null().describe('Turned off'),
          ...errors,
          400: refusedWith([PASSWORD_OR_CODE_NEEDED, WRONG_PASSWORD_OR_CODE]),
        },
      },
    },
    async (request, reply) => {
      await disableTwoFactor(deps, actorOf(request), request.body);
      return reply.status(204).send(null);
    },
  );

  const renderPage = (reply: FastifyReply, status: number, error?: string) =>
    reply
      .status(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(renderTwoFactorPage({ error }));

  app.get(
    '/api/login/two-factor',
    {
      schema: {
        tags: ['auth'],
        summary: 'The code step of a sign-in; without a password step waiting, back to the sign-in page',
        response: { 200: z.string().describe('The code page (text/html)'), 302: z.null() },
      },
    },
    async (request, reply) => {
      if (!readPendingSignIn(request, ctx.now())) return reply.redirect('/api/login', 302);
      return renderPage(reply, 200);
    },
  );

  /** The code step takes a form (the page above) or JSON, as the password step does. */
  const handleCode = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const form = isFormPost(request);
    try {
      if (request.validationError) throw request.validationError;
      const pending = readPendingSignIn(request, ctx.now());
      if (!pending) throw new AppError('unauthorized', SIGN_IN_CODE_EXPIRED);
      const ipWait = await ctx.rateLimits.signInPerIp.hit(db, request.ip);
      if (ipWait > 0)
        throw tooManyRequests(`Too many sign-in attempts. Please try again in ${waitText(ipWait)}.`);
      const { code } = signInCodeBodySchema.parse(request.body);
      const verified = await verifySignInCode(deps, pending.userId, code);
      const user = await finishSignIn(db, verified, pending.intent, config.adminEmails);
      clearPendingSignIn(app, reply);
      await startSession(app, db, request, reply, user.id);
      if (form) await reply.redirect(landingAfterSignIn(pending.returnTo, pending.intent), 303);
      else await reply.status(200).send(toCurrentUser(user));
    } catch (error) {
      if (!form) throw error;
      const { status, body } = toErrorBody(error, request.id);
      if (status >= 500) throw error;
      // A sign-in that waited too long starts again from the password.
      if (body.message === SIGN_IN_CODE_EXPIRED) {
        clearPendingSignIn(app, reply);
        await reply.redirect('/api/login', 303);
        return;
      }
      await renderPage(reply, status, body.fields?.code ?? body.message);
    }
  };

  app.post(
    '/api/login/two-factor',
    {
      attachValidation: true,
      schema: {
        tags: ['auth'],
        summary: 'The code step of a sign-in (form or JSON): a code of the app or a recovery code; signs in',
        body: signInCodeBodySchema,
        response: {
          200: currentUserSchema,
          303: z.null(),
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    handleCode,
  );
}
