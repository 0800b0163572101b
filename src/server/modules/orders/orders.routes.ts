import { z } from 'zod';
import { errorBodySchema } from '../../../domain/errors';
import {
  orderEventSchema,
  orderIdParamsSchema,
  orderItemSchema,
  orderListQuerySchema,
  orderSchema,
  orderStatusChangeBodySchema,
} from '../../../domain/orders';
import { actorOf } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import { compileSerializer, sendJsonBytes } from '../../platform/compiled-serializer';
import { cancelOrder } from './cancel-order';
import { changeOrderStatus } from './change-order-status';
import { getOrder, getOrderEvents, getOrderItems } from './get-order';
import { listOwnOrders } from './list-orders';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

const orderListSchema = z.array(orderSchema);

export function registerOrderRoutes(app: App, ctx: AppContext): void {
  const { db, privateReads } = ctx;
  const serializeOrders = compileSerializer(orderListSchema);

  app.get(
    '/api/orders',
    {
      schema: {
        tags: ['orders'],
        summary:
          "The signed-in user's orders as buyer, seller or driver (as= picks one), newest first; admins see all unless as= is given",
        querystring: orderListQuerySchema,
        response: { 200: orderListSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      // Written by the compiled serialiser on both databases: the schema's own check of a dozen
      // orders cost more than the query (docs/decisions/0029-signed-in-reads-kept.md, What is kept).
      const read = async () => {
        const value = serializeOrders(await listOwnOrders(db, actor, request.query));
        return { value, expire: Infinity, bytes: value.length };
      };
      // The list as sent is kept until an order, a session, a user or an address changes
      // (docs/decisions/0029-signed-in-reads-kept.md, What is kept); the tables whose triggers
      // drop it are listed in src/server/platform/cache-invalidation.ts.
      const { as: view, limit, offset } = request.query;
      const key = `orders ${actor.id} ${view ?? ''} ${limit} ${offset}`;
      const kept =
        (await privateReads.getFresh<Buffer>('lists', key, request)) ??
        (await privateReads.load('lists', key, read));
      return sendJsonBytes(reply, kept?.value ?? (await read()).value);
    },
  );

  app.get(
    '/api/orders/:id',
    {
      schema: {
        tags: ['orders'],
        summary: 'One order of which the user is a party (404 otherwise); no buyer prices for its driver',
        params: orderIdParamsSchema,
        response: { 200: orderSchema, ...errors },
      },
    },
    async (request) => getOrder(db, actorOf(request), request.params.id),
  );

  app.get(
    '/api/orders/:id/items',
    {
      schema: {
        tags: ['orders'],
        summary: 'Items with product name and description; price absent for the driver',
        params: orderIdParamsSchema,
        response: { 200: z.array(orderItemSchema), ...errors },
      },
    },
    async (request) => getOrderItems(db, actorOf(request), request.params.id),
  );

  app.get(
    '/api/orders/:id/events',
    {
      schema: {
        tags: ['orders'],
        summary: 'The status timeline: every change with its actor and time, oldest first',
        params: orderIdParamsSchema,
        response: { 200: z.array(orderEventSchema), ...errors },
      },
    },
    async (request) => getOrderEvents(db, actorOf(request), request.params.id),
  );

  app.post(
    '/api/orders/:id/cancel',
    {
      schema: {
        tags: ['orders'],
        summary:
          'Cancel: buyer or seller while pending, admin until finished; refunds the order in full and puts the stock back',
        params: orderIdParamsSchema,
        response: { 200: orderSchema, ...errors, 403: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (request) => cancelOrder(ctx.ops.orders(request.log), actorOf(request), request.params.id),
  );

  app.patch(
    '/api/orders/:id/status',
    {
      schema: {
        tags: ['orders'],
        summary:
          "Move an order one step forward: the seller's pickup and seller-delivery steps, the assigned driver's delivery steps (a trailer order needs its delivery photo first)",
        params: orderIdParamsSchema,
        body: orderStatusChangeBodySchema,
        response: { 200: orderSchema, ...errors, 403: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (request) =>
      changeOrderStatus(ctx.ops.orders(request.log), actorOf(request), request.params.id, request.body),
  );
}
