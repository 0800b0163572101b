import { z } from 'zod';
import { errorBodySchema } from '../../../domain/errors';
import {
  availableOrderSchema,
  availableOrdersQuerySchema,
  deliveryPhotoBodySchema,
  driverEarningsSchema,
  driverTripSchema,
  driverTripsQuerySchema,
  estimatedTimeBodySchema,
} from '../../../domain/deliveries';
import { PLACE_BOTH_OR_NEITHER_MESSAGE, deliverBodySchema } from '../../../domain/delivery-proof';
import { orderIdParamsSchema, orderSchema } from '../../../domain/orders';
import { actorOf } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import { refusedWith } from '../../platform/openapi';
import { acceptOrder } from '../orders/accept-order';
import { handBackOrder } from '../orders/hand-back-order';
import { deliverOrder } from '../orders/deliver-order';
import { declineOrder } from './decline-order';
import { getDriverEarnings, getDriverTrips } from './get-driver-earnings';
import { listOrdersAvailableTo } from './list-available-orders';
import { setDeliveryPhoto } from '../orders/set-delivery-photo';
import { setEstimatedTime } from '../orders/set-estimated-time';
import { undoDecline } from './undo-decline';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };
const orderErrors = { ...errors, 404: errorBodySchema, 409: errorBodySchema };

/** Drivers, and admins who may act as one (docs/rules/deliveries.md, Deliveries). */
const DRIVERS = { roles: ['driver', 'admin'] } as const;

/**
 * The driver's area (docs/rules/deliveries.md, Deliveries). The status steps (Start Delivery, Mark
 * Delivered without proof) are PATCH /api/orders/{id}/status of the orders module; Mark Delivered
 * with its proof is POST /api/orders/{id}/deliver.
 */
export function registerDeliveryRoutes(app: App, ctx: AppContext): void {
  // A static segment: Fastify's router prefers it to /api/orders/:id whatever the order of
  // registration (a test in deliveries.test.ts holds this).
  app.get(
    '/api/orders/available',
    {
      config: DRIVERS,
      schema: {
        tags: ['deliveries'],
        summary:
          'Orders a verified driver may accept, nearest pickup first, with pickup and delivery distances in miles; maxDistance omitted or 500 means any',
        querystring: availableOrdersQuerySchema,
        response: { 200: z.array(availableOrderSchema), ...errors },
      },
    },
    async (request) => listOrdersAvailableTo(ctx.db, actorOf(request), request.query),
  );

  app.post(
    '/api/orders/:id/assign',
    {
      config: DRIVERS,
      schema: {
        tags: ['deliveries'],
        summary:
          'Accept an available order: of drivers accepting at once exactly one gets it, the others 409 "This order was already taken"',
        params: orderIdParamsSchema,
        response: { 200: orderSchema, ...orderErrors },
      },
    },
    async (request) => acceptOrder(ctx.ops.orders(request.log), actorOf(request), request.params.id),
  );

  app.post(
    '/api/orders/:id/decline',
    {
      config: DRIVERS,
      schema: {
        tags: ['deliveries'],
        summary: 'Hide an available order from this driver only',
        params: orderIdParamsSchema,
        response: { 204: z.null().describe('Declined'), ...orderErrors },
      },
    },
    async (request, reply) => {
      await declineOrder(ctx.ops.orders(request.log), actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/api/orders/:id/decline',
    {
      config: DRIVERS,
      schema: {
        tags: ['deliveries'],
        summary: "Undo this driver's decline: the order is offered to them again while it is offered",
        params: orderIdParamsSchema,
        response: { 204: z.null().describe('Decline undone'), ...orderErrors },
      },
    },
    async (request, reply) => {
      await undoDecline(ctx.ops.orders(request.log), actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/orders/:id/hand-back',
    {
      config: DRIVERS,
      schema: {
        tags: ['deliveries'],
        summary:
          'The assigned driver gives an accepted order back before Start Delivery: pending again, offered to other drivers; 404 for anyone else, 409 once started',
        params: orderIdParamsSchema,
        response: { 204: z.null().describe('Handed back'), ...orderErrors },
      },
    },
    async (request, reply) => {
      await handBackOrder(ctx.ops.orders(request.log), actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.patch(
    '/api/orders/:id/estimated-time',
    {
      config: DRIVERS,
      schema: {
        tags: ['deliveries'],
        summary:
          "The assigned driver's expected arrival (ISO date-time in the future) while assigned or in transit; 404 for anyone else",
        params: orderIdParamsSchema,
        body: estimatedTimeBodySchema,
        response: { 200: orderSchema, ...orderErrors },
      },
    },
    async (request) =>
      setEstimatedTime(ctx.ops.orders(request.log), actorOf(request), request.params.id, request.body),
  );

  app.patch(
    '/api/orders/:id/delivery-photo',
    {
      config: DRIVERS,
      schema: {
        tags: ['deliveries'],
        summary:
          "The assigned driver's delivery photo (an own upload, then readable by the order's parties and admins only); needed before a trailer order goes in transit",
        params: orderIdParamsSchema,
        body: deliveryPhotoBodySchema,
        response: { 200: orderSchema, ...orderErrors },
      },
    },
    async (request) =>
      setDeliveryPhoto(ctx.ops.orders(request.log), actorOf(request), request.params.id, request.body),
  );

  app.post(
    '/api/orders/:id/deliver',
    {
      // No role guard: anyone but the order's assigned driver gets 404, buyers and sellers too.
      schema: {
        tags: ['deliveries'],
        summary:
          "Mark Delivered with its proof: the assigned driver's drop-off photo and/or the buyer's 4-digit code as the settings ask, and the place if given; 404 for anyone else, 429 after 5 wrong codes",
        params: orderIdParamsSchema,
        body: deliverBodySchema,
        response: {
          200: orderSchema,
          ...orderErrors,
          400: refusedWith([PLACE_BOTH_OR_NEITHER_MESSAGE]),
          429: errorBodySchema,
        },
      },
    },
    async (request) =>
      deliverOrder(ctx.ops.orders(request.log), actorOf(request), request.params.id, request.body),
  );

  app.get(
    '/api/earnings/driver',
    {
      config: DRIVERS,
      schema: {
        tags: ['deliveries'],
        summary:
          "The caller's driver earnings (after the platform commission, net of refunds' reversals) of delivered orders: in all with their count, today, this week and each of the last 8 weeks (marketplace time zone)",
        response: { 200: driverEarningsSchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request) =>
      getDriverEarnings(ctx.db, actorOf(request), { now: ctx.now(), timeZone: ctx.config.marketplaceTz }),
  );

  app.get(
    '/api/earnings/driver/trips',
    {
      config: DRIVERS,
      schema: {
        tags: ['deliveries'],
        summary:
          "The caller's deliveries, latest first: cities, the trip's distance in miles (pickup to delivery address) and what it paid",
        querystring: driverTripsQuerySchema,
        response: {
          200: z.array(driverTripSchema),
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
        },
      },
    },
    async (request) => getDriverTrips(ctx.db, actorOf(request), request.query),
  );
}
