import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorBodySchema } from '../../../domain/errors';
import {
  onboardingLinkBodySchema,
  payoutAccountStateSchema,
  payoutLinkSchema,
  testOnboardingBodySchema,
  testOnboardingQuerySchema,
  testOnboardingResultSchema,
  testOnboardingViewSchema,
  testPayoutAccountParamsSchema,
  testPayoutAccountViewSchema,
} from '../../../domain/payout-accounts';
import type { StripePayoutAccounts } from '../../adapters/payouts/stripe-payout-accounts';
import { actorOf } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import {
  createOwnDashboardLink,
  createOwnOnboardingLink,
  createOwnPayoutAccount,
  getOwnPayoutAccountState,
  handleAccountWebhook,
  type AccountWebhookParser,
} from './payout-accounts.service';
import { submitTestOnboarding, viewTestOnboarding, viewTestPayoutAccount } from './test-onboarding.service';

const PAYOUT_ROLES = ['seller', 'driver'] as const;
const errors = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

function baseUrlOf(request: FastifyRequest, publicUrl: string | undefined): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}

/**
 * Payout accounts of sellers and drivers (docs/rules/money.md, Payout accounts): the calls of the
 * dashboards' payout card, the Connect webhook, and the test provider's onboarding and dashboard
 * pages. Each user reaches only their own account: no call takes another user's id.
 */
export function registerPayoutAccountRoutes(app: App, ctx: AppContext): void {
  // The same adapters the provider is composed of (src/server/adapters/payouts/create-payout-provider.ts),
  // for what only one of them has: Stripe's webhook check, the test provider's pages. Stripe's SDK
  // is loaded with the first webhook (docs/decisions/0016-embedded-database-process.md, Memory).
  const stripeConfig = ctx.config.stripe;
  let stripeAccounts: Promise<StripePayoutAccounts> | undefined;
  const parseWebhook: AccountWebhookParser | undefined = stripeConfig
    ? async (rawBody, signature) => {
        stripeAccounts ??= import('../../adapters/payouts/stripe-payout-accounts').then(
          ({ StripePayoutAccounts }) => new StripePayoutAccounts(stripeConfig),
        );
        return (await stripeAccounts).parseAccountWebhook(rawBody, signature);
      }
    : undefined;

  app.post(
    '/api/stripe/connect/account',
    {
      config: { roles: PAYOUT_ROLES },
      schema: {
        tags: ['payouts'],
        summary:
          "Create the caller's payout account (a Connect Express account with Stripe); a second call answers the existing one with 200",
        response: {
          200: payoutAccountStateSchema,
          201: payoutAccountStateSchema,
          ...errors,
          503: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const { created, state } = await createOwnPayoutAccount(
        ctx.ops.payoutAccounts(request.log),
        actorOf(request),
      );
      return reply.status(created ? 201 : 200).send(state);
    },
  );

  app.get(
    '/api/stripe/connect/account-status',
    {
      config: { roles: PAYOUT_ROLES },
      schema: {
        tags: ['payouts'],
        summary:
          "The caller's payout account, refreshed from the provider (the stored status when it cannot be reached); polled every 60 s",
        response: { 200: payoutAccountStateSchema, ...errors },
      },
    },
    async (request) => getOwnPayoutAccountState(ctx.ops.payoutAccounts(request.log), actorOf(request)),
  );

  app.post(
    '/api/stripe/connect/onboarding-link',
    {
      config: { roles: PAYOUT_ROLES },
      schema: {
        tags: ['payouts'],
        summary:
          'Where the caller completes their payout account, returning to the seller or driver dashboard; 409 before the account exists',
        body: onboardingLinkBodySchema.nullish(),
        response: {
          200: payoutLinkSchema,
          400: errorBodySchema,
          ...errors,
          409: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (request) =>
      createOwnOnboardingLink(
        ctx.ops.payoutAccounts(request.log),
        actorOf(request),
        request.body,
        baseUrlOf(request, ctx.config.publicUrl),
      ),
  );

  app.post(
    '/api/stripe/connect/dashboard-link',
    {
      config: { roles: PAYOUT_ROLES },
      schema: {
        tags: ['payouts'],
        summary:
          "The provider's dashboard of the caller's payout account (opened in a new tab); 409 until onboarding is complete",
        response: { 200: payoutLinkSchema, ...errors, 409: errorBodySchema, 503: errorBodySchema },
      },
    },
    async (request) => createOwnDashboardLink(ctx.ops.payoutAccounts(request.log), actorOf(request)),
  );

  // The webhook's signature covers the exact bytes sent, so this route keeps the body raw.
  void app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
      done(null, body);
    });
    scope.post(
      '/api/stripe/connect/webhook',
      {
        schema: {
          tags: ['payouts'],
          summary:
            "Stripe Connect webhook (signature-checked): account.updated refreshes the account's user; 404 with the test provider",
          response: {
            200: z.object({ received: z.literal(true) }),
            400: errorBodySchema,
            404: errorBodySchema,
            503: errorBodySchema,
          },
        },
      },
      async (request) => {
        const header = request.headers['stripe-signature'];
        const signature = Array.isArray(header) ? header[0] : header;
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        return handleAccountWebhook(ctx.ops.payoutAccounts(request.log), parseWebhook, raw, signature);
      },
    );
  });

  // The test provider's pages (404 while Stripe runs).
  app.get(
    '/api/payouts/test-accounts/:accountId/onboarding',
    {
      config: { roles: PAYOUT_ROLES },
      schema: {
        tags: ['payouts'],
        summary:
          "Test provider: the onboarding page's account, for its own user with the link's signed token",
        params: testPayoutAccountParamsSchema,
        querystring: testOnboardingQuerySchema,
        response: { 200: testOnboardingViewSchema, 400: errorBodySchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request) =>
      viewTestOnboarding(
        ctx.ops.payoutAccounts(request.log),
        actorOf(request),
        request.params.accountId,
        request.query.token,
      ),
  );

  app.post(
    '/api/payouts/test-accounts/:accountId/onboarding',
    {
      config: { roles: PAYOUT_ROLES },
      schema: {
        tags: ['payouts'],
        summary:
          'Test provider: complete the simulated account, leave it incomplete or have it restricted; answers where to return',
        params: testPayoutAccountParamsSchema,
        body: testOnboardingBodySchema,
        response: { 200: testOnboardingResultSchema, 400: errorBodySchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request) =>
      submitTestOnboarding(
        ctx.ops.payoutAccounts(request.log),
        actorOf(request),
        request.params.accountId,
        request.body,
      ),
  );

  app.get(
    '/api/payouts/test-accounts/:accountId',
    {
      config: { roles: PAYOUT_ROLES },
      schema: {
        tags: ['payouts'],
        summary: "Test provider: the simulated account's dashboard page, for its own user",
        params: testPayoutAccountParamsSchema,
        response: { 200: testPayoutAccountViewSchema, 400: errorBodySchema, ...errors },
      },
    },
    async (request) =>
      viewTestPayoutAccount(ctx.ops.payoutAccounts(request.log), actorOf(request), request.params.accountId),
  );
}
