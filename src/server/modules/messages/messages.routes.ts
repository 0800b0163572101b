import { z } from 'zod';
import { errorBodySchema } from '../../../domain/errors';
import {
  orderMessageBodySchema,
  orderMessageSchema,
  orderMessagesParamsSchema,
  productMessageBodySchema,
  productMessageSchema,
  productMessagesQuerySchema,
  productThreadSchema,
} from '../../../domain/messages';
import { unreadMessagesSchema } from '../../../domain/unread-messages';
import { actorOf } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import { countUnreadMessages } from './count-unread-messages';
import { listOrderMessages } from './list-order-messages';
import { listProductMessages } from './list-product-messages';
import { listProductThreads } from './list-product-threads';
import { postOrderMessage } from './post-order-message';
import { postProductMessage } from './post-product-message';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };
const sendErrors = { ...errors, 429: errorBodySchema };

/** Product and order conversations (docs/rules/selling.md, Reviews and messages). */
export function registerMessageRoutes(app: App, ctx: AppContext): void {
  const sendDeps = { db: ctx.db, limiter: ctx.rateLimits.messagesPerUser };

  app.get(
    '/api/product-messages',
    {
      schema: {
        tags: ['messages'],
        summary:
          "A buyer's conversation with the seller about a product, oldest first (the seller names the buyer); reading marks it read",
        querystring: productMessagesQuerySchema,
        response: { 200: z.array(productMessageSchema), ...errors },
      },
    },
    async (request) => listProductMessages(ctx.db, actorOf(request), request.query),
  );

  app.post(
    '/api/product-messages',
    {
      schema: {
        tags: ['messages'],
        summary:
          'Write to the seller about a product (a buyer), or answer a buyer who wrote (the seller, naming buyerId); 2,000 characters at most',
        body: productMessageBodySchema,
        response: { 201: productMessageSchema, ...sendErrors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await postProductMessage(sendDeps, actorOf(request), request.body)),
  );

  app.get(
    '/api/product-messages/threads',
    {
      schema: {
        tags: ['messages'],
        summary:
          "The conversations about the caller's products, by product and buyer, with unread counts, latest first",
        response: { 200: z.array(productThreadSchema), 401: errorBodySchema },
      },
    },
    async (request) => listProductThreads(ctx.db, actorOf(request)),
  );

  app.get(
    '/api/messages/order/:orderId',
    {
      schema: {
        tags: ['messages'],
        summary:
          "An order's conversation, oldest first, for its buyer, seller, driver and admins (404 otherwise); reading marks it read",
        params: orderMessagesParamsSchema,
        response: { 200: z.array(orderMessageSchema), ...errors },
      },
    },
    async (request) => listOrderMessages(ctx.db, actorOf(request), request.params.orderId),
  );

  app.post(
    '/api/messages',
    {
      schema: {
        tags: ['messages'],
        summary:
          "Write in an order's conversation: its buyer, seller, driver or an admin (404 otherwise); 2,000 characters at most",
        body: orderMessageBodySchema,
        response: { 201: orderMessageSchema, ...sendErrors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await postOrderMessage(sendDeps, actorOf(request), request.body)),
  );

  app.get(
    '/api/messages/unread',
    {
      schema: {
        tags: ['messages'],
        summary: "How many messages the caller has not read, and in which conversations (the header's count)",
        response: { 200: unreadMessagesSchema, 401: errorBodySchema },
      },
    },
    async (request) => countUnreadMessages(ctx.db, actorOf(request)),
  );
}
