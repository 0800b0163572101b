import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import {
  LINK_EXPIRED,
  PASSWORD_CHANGED,
  RESET_SENT,
  VERIFICATION_SENT,
  accountMessageSchema,
  changePasswordBodySchema,
  emailOnlyBodySchema,
  resetPasswordBodySchema,
  tokenQuerySchema,
  verifyEmailQuerySchema,
} from '../../../domain/accounts';
import { safeReturnTo } from '../../../domain/auth';
import { errorBodySchema } from '../../../domain/errors';
import { badRequest, toErrorBody } from '../../platform/errors';
import { startSession } from '../../platform/sessions';
import { actorOf } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import { renderAccountPage, type AccountPageState } from './login-page';
import {
  changePassword,
  limitAccountMail,
  resetPassword,
  tokenIsLive,
  verifyEmail,
} from './accounts.service';
import { isFormPost, rawField } from './form-posts';
import { queueAccountRequest } from './account-requests';

const htmlPage = z.string().describe('A page of local sign-in (text/html)');

/**
 * Password reset, email verification and change of password for local accounts
 * (docs/decisions/0019-reaching-people.md, Accounts). Asking for a link answers the same whether the
 * address has an account or not; the mail says what happened.
 */
export function registerAccountRoutes(app: App, ctx: AppContext): void {
  const { db, config } = ctx;

  const renderPage = (reply: FastifyReply, status: number, state: AccountPageState) =>
    reply
      .status(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(renderAccountPage(state));

  app.get(
    '/api/forgot-password',
    {
      schema: {
        tags: ['auth'],
        summary: 'The "Forgot password?" page: asks the email to send a reset link to',
        response: { 200: htmlPage },
      },
    },
    async (_request, reply) => renderPage(reply, 200, { page: 'forgot' }),
  );

  app.post(
    '/api/forgot-password',
    {
      attachValidation: true,
      schema: {
        tags: ['auth'],
        summary: 'Sends a password reset link; the same answer whether the address has an account or not',
        body: emailOnlyBodySchema,
        response: { 202: accountMessageSchema, 400: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const form = isFormPost(request);
      try {
        if (request.validationError) throw request.validationError;
        const { email } = emailOnlyBodySchema.parse(request.body);
        await limitAccountMail(db, ctx.rateLimits.accountMailPerIp, request.ip);
        // The same work whatever the address (docs/decisions/0023-accounts-an-attacker-cannot-bend.md).
        await queueAccountRequest(db, { purpose: 'reset', email });
      } catch (error) {
        if (!form) throw error;
        const { status, body } = toErrorBody(error, request.id);
        if (status >= 500) throw error;
        return renderPage(reply, status, {
          page: 'forgot',
          error: body.fields ? 'Please correct the highlighted fields.' : body.message,
          fields: body.fields,
          email: rawField(request.body, 'email') ?? '',
        });
      }
      if (form)
        return renderPage(reply, 202, { page: 'sent', title: 'Check your email', message: RESET_SENT });
      return reply.status(202).send({ message: RESET_SENT });
    },
  );

  app.get(
    '/api/reset-password',
    {
      schema: {
        tags: ['auth'],
        summary:
          'The page of a reset link: set a new password, or "This link has expired or was already used."',
        querystring: tokenQuerySchema,
        response: { 200: htmlPage, 400: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { token } = request.query;
      if (!(await tokenIsLive(db, token, 'reset', ctx.now())))
        return renderPage(reply, 400, { page: 'expired', purpose: 'reset' });
      return renderPage(reply, 200, { page: 'reset', token });
    },
  );

  app.post(
    '/api/reset-password',
    {
      attachValidation: true,
      schema: {
        tags: ['auth'],
        summary:
          'Sets a new password with a reset link: the link is used up and every session of the user ends',
        body: resetPasswordBodySchema,
        response: { 200: accountMessageSchema, 400: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const form = isFormPost(request);
      const token = rawField(request.body, 'token') ?? '';
      let changed = false;
      try {
        if (request.validationError) throw request.validationError;
        const body = resetPasswordBodySchema.parse(request.body);
        changed = await resetPassword(db, body.token, body.password, config.siteUrl, ctx.now());
        if (!changed) throw badRequest(LINK_EXPIRED);
      } catch (error) {
        if (!form) throw error;
        const { status, body } = toErrorBody(error, request.id);
        if (status >= 500) throw error;
        if (!body.fields || body.fields.token)
          return renderPage(reply, 400, { page: 'expired', purpose: 'reset' });
        return renderPage(reply, status, {
          page: 'reset',
          token,
          error: 'Please correct the highlighted fields.',
          fields: body.fields,
        });
      }
      if (form) return renderPage(reply, 200, { page: 'changed' });
      return reply.status(200).send({ message: PASSWORD_CHANGED });
    },
  );

  app.get(
    '/api/verify-email',
    {
      schema: {
        tags: ['auth'],
        summary:
          'The link of the verification mail: confirms the address, signs in and goes to returnTo (a page of this site) or /',
        querystring: verifyEmailQuerySchema,
        response: {
          302: z.null().describe('Signed in; redirect to returnTo or /'),
          // The shared error body is a zod/mini schema (docs/decisions/0014-first-load.md, The first
          // load's schemas on zod/mini): described on a copy, as classic zod's describe() does.
          400: errorBodySchema.clone().register(z.globalRegistry, {
            description: 'A missing link; an expired or used one gets the page (text/html)',
          }),
          403: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      // Where to land is settled before the link is used up (docs/product-rules.md, Sessions and sign-in).
      const landing = safeReturnTo(request.query.returnTo);
      const user = await verifyEmail(db, request.query.token, ctx.now());
      if (!user) return renderPage(reply, 400, { page: 'expired', purpose: 'verify' });
      await startSession(app, db, request, reply, user.id);
      return reply.redirect(landing, 302);
    },
  );

  app.post(
    '/api/resend-verification',
    {
      attachValidation: true,
      schema: {
        tags: ['auth'],
        summary:
          'Sends a new verification link to an account not confirmed yet; the same answer for any address',
        body: emailOnlyBodySchema,
        response: { 202: accountMessageSchema, 400: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const form = isFormPost(request);
      try {
        if (request.validationError) throw request.validationError;
        const { email } = emailOnlyBodySchema.parse(request.body);
        await limitAccountMail(db, ctx.rateLimits.accountMailPerIp, request.ip);
        await queueAccountRequest(db, { purpose: 'verify', email });
      } catch (error) {
        if (!form) throw error;
        const { status, body } = toErrorBody(error, request.id);
        if (status >= 500) throw error;
        return renderPage(reply, status, {
          page: 'sent',
          title: 'The link was not sent',
          message: body.fields?.email ?? body.message,
        });
      }
      if (form)
        return renderPage(reply, 202, {
          page: 'sent',
          title: 'Check your email',
          message: VERIFICATION_SENT,
        });
      return reply.status(202).send({ message: VERIFICATION_SENT });
    },
  );

  app.post(
    '/api/auth/password',
    {
      schema: {
        tags: ['auth'],
        summary: 'Change of password: ends every other session of the user and mails them',
        body: changePasswordBodySchema,
        response: {
          200: accountMessageSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          409: errorBodySchema,
        },
      },
    },
    async (request) => {
      await changePassword(db, actorOf(request), request.body, request.sessionId, config.siteUrl);
      return { message: PASSWORD_CHANGED };
    },
  );
}
