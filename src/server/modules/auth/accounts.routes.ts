import type { FastifyReply } from 'fastify';
import {
  LINK_EXPIRED,
  PASSWORD_CHANGED,
  RESET_SENT,
  VERIFICATION_SENT,
  WRONG_CURRENT_PASSWORD,
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
import { GENERIC_BAD_REQUEST, htmlPage, jsonOrPage, noBody, refusedWith } from '../../platform/openapi';

/** These calls take the account pages' forms too: a form gets a page, JSON the message or error body. */
const FORM_OR_JSON = ['application/json', 'application/x-www-form-urlencoded'];
const formRefusal = (description: string) => jsonOrPage(description, errorBodySchema);
const FORM_BAD_REQUEST = formRefusal(`${GENERIC_BAD_REQUEST}; a form gets the page with the problem`);
const TOO_MANY_MAILS = formRefusal('Too many mails asked from this address: try again later');

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
        response: { 200: htmlPage('The page') },
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
        consumes: FORM_OR_JSON,
        body: emailOnlyBodySchema,
        response: {
          202: jsonOrPage('Sent, or nothing to send', accountMessageSchema),
          400: FORM_BAD_REQUEST,
          429: TOO_MANY_MAILS,
        },
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
        response: {
          200: htmlPage('The form for a new password'),
          400: jsonOrPage(
            'An expired or used link gets the page (text/html); a missing or malformed one the error body',
            errorBodySchema,
          ),
        },
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
        consumes: FORM_OR_JSON,
        body: resetPasswordBodySchema,
        response: {
          200: jsonOrPage('The password is changed', accountMessageSchema),
          400: refusedWith([LINK_EXPIRED], { html: true }),
          429: TOO_MANY_MAILS,
        },
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
          302: noBody('Signed in; redirect to returnTo or /'),
          400: jsonOrPage(
            'A missing link; an expired or used one gets the page (text/html)',
            errorBodySchema,
          ),
          403: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      // Where to land is settled before the link is used up (docs/rules/accounts.md, Sessions and sign-in).
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
        consumes: FORM_OR_JSON,
        body: emailOnlyBodySchema,
        response: {
          202: jsonOrPage('Sent, or nothing to send', accountMessageSchema),
          400: FORM_BAD_REQUEST,
          429: TOO_MANY_MAILS,
        },
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
          400: refusedWith([WRONG_CURRENT_PASSWORD]),
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
