import { z } from 'zod';
import {
  checkoutBodySchema,
  paymentConfirmBodySchema,
  paymentIdParamsSchema,
  paymentIntentSchema,
  paymentResultSchema,
  CARD_CVC_MESSAGE,
  CARD_EXPIRED_MESSAGE,
  CARD_EXPIRY_MESSAGE,
  CARD_NAME_MESSAGE,
  CARD_NUMBER_MESSAGE,
} from '../../../domain/checkout';
import { SELECT_DELIVERY_ADDRESS, SELECTED_ADDRESS_NOT_FOUND } from '../../../domain/checkout-messages';
import { errorBodySchema } from '../../../domain/errors';
import { refundsNeedingAttentionSchema } from '../../../domain/refunds';
import { actorOf } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import { compileSerializer, sendJsonBytes } from '../../platform/compiled-serializer';
import { refusedWith } from '../../platform/openapi';
import { confirmPayment } from './confirm-payment';
import { createPayment } from './create-payment';
import { getPayment } from './get-payment';
import { handlePaymentWebhook } from './payment-webhook';
import { recoverPaidCheckouts, type RecoveryReport } from './recover-paid-checkouts';
import { listRefundsForAdmin } from '../refunds/refunds.service';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The money timer's work (payments charged but not processed, abandoned payments, unfinished
     * refunds): it runs when the app is ready and every MONEY_RETRY_INTERVAL_MS; tests call it.
     */
    recoverPaidCheckouts(): Promise<RecoveryReport>;
  }
}

/** Admins only: the access hook answers 401 to visitors and 403 to everyone else (decision 0011). */
const ADMIN_ONLY = { roles: ['admin'], forbiddenMessage: 'You must be an admin to do this' } as const;

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

export function registerPaymentRoutes(app: App, ctx: AppContext): void {
  // A checkout's payment and its confirmation are written by serialisers compiled from their
  // schemas (docs/decisions/0025-checkout-statements.md, Answers written by compiled serialisers).
  const serializeIntent = compileSerializer(paymentIntentSchema);
  const serializeResult = compileSerializer(paymentResultSchema);
  app.decorate('recoverPaidCheckouts', () => recoverPaidCheckouts(ctx.ops.payments(app.log)));
  // Never stops the server: what cannot be finished now is logged and tried again at the next tick
  // (docs/decisions/0013-money-movement.md, Payments and refunds).
  app.jobs.every({
    name: 'payments',
    everyMs: ctx.config.moneyRetryIntervalMs,
    run: () => recoverPaidCheckouts(ctx.ops.payments(app.log)),
  });

  app.get(
    '/api/admin/refunds',
    {
      config: ADMIN_ONLY,
      schema: {
        tags: ['admin'],
        summary:
          'Admin: refunds that failed or still wait (order number, amount, reason, status, attempts, last error, since when), oldest first',
        response: { 200: refundsNeedingAttentionSchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async () => ({ refunds: await listRefundsForAdmin(ctx.db) }),
  );

  app.post(
    '/api/payments',
    {
      schema: {
        tags: ['payments'],
        summary:
          'Start paying a checkout (same body as the quote): the server prices it and creates a payment for the grand total with the active provider',
        body: checkoutBodySchema,
        response: {
          201: paymentIntentSchema,
          ...errors,
          400: refusedWith([SELECT_DELIVERY_ADDRESS, SELECTED_ADDRESS_NOT_FOUND]),
          503: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const intent = await createPayment(ctx.ops.payments(request.log), actor, request.body);
      return sendJsonBytes(reply.status(201), serializeIntent(intent));
    },
  );

  app.get(
    '/api/payments/:id',
    {
      schema: {
        tags: ['payments'],
        summary: 'How an own payment stands, with the orders it made',
        params: paymentIdParamsSchema,
        response: { 200: paymentResultSchema, ...errors },
      },
    },
    async (request) => getPayment(ctx.ops.payments(request.log), actorOf(request), request.params.id),
  );

  app.post(
    '/api/payments/:id/confirm',
    {
      schema: {
        tags: ['payments'],
        summary:
          'Report a payment: test provider charges the card fields; Stripe ({}) asks Stripe. Success makes the orders exactly once; 402 when declined; 409 "Out of stock: <name>" (refunded at once)',
        params: paymentIdParamsSchema,
        body: paymentConfirmBodySchema,
        response: {
          200: paymentResultSchema,
          ...errors,
          // The test provider needs every card field; Stripe's card is confirmed in the browser.
          400: refusedWith([
            CARD_NUMBER_MESSAGE,
            CARD_EXPIRY_MESSAGE,
            CARD_EXPIRED_MESSAGE,
            CARD_CVC_MESSAGE,
            CARD_NAME_MESSAGE,
          ]),
          402: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (request, reply) =>
      sendJsonBytes(
        reply,
        serializeResult(
          await confirmPayment(
            ctx.ops.payments(request.log),
            actorOf(request),
            request.params.id,
            request.body,
          ),
        ),
      ),
  );

  // The webhook's signature covers the exact bytes sent, so this route keeps the body raw.
  void app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
      done(null, body);
    });
    scope.post(
      '/api/stripe/webhook',
      {
        schema: {
          tags: ['payments'],
          summary:
            'Stripe webhook (signature-checked): payment_intent.succeeded makes the orders exactly once (its amount checked); refund.updated, refund.failed and charge.refund.updated track refunds; charge.dispute.* records disputes (read again from Stripe)',
          response: {
            200: z.object({ received: z.literal(true) }),
            400: errorBodySchema,
            404: errorBodySchema,
          },
        },
      },
      async (request) => {
        const header = request.headers['stripe-signature'];
        const signature = Array.isArray(header) ? header[0] : header;
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        return handlePaymentWebhook(ctx.ops.payments(request.log), raw, signature);
      },
    );
  });
}
