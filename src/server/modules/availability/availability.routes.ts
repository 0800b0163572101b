import { z } from 'zod';
import {
  blackoutBodySchema,
  blackoutSchema,
  scheduleBodySchema,
  scheduleSchema,
  sellerIdParamsSchema,
  slotSchema,
  END_BEFORE_START_MESSAGE,
} from '../../../domain/availability';
import { errorBodySchema } from '../../../domain/errors';
import { idParamsSchema } from '../../../domain/users';
import { actorOf } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import { refusedWith } from '../../platform/openapi';
import { compileSerializer } from '../../platform/compiled-serializer';
import { sendCachedAnswer } from '../../platform/public-cache';
import {
  addBlackout,
  addSchedule,
  pickupSlotsAnswer,
  listOwnBlackouts,
  listOwnSchedules,
  removeBlackout,
  removeSchedule,
} from './availability.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
/** A 204 carries no body. */
const noContent = z.null().describe('No content');

const slotListSchema = z.array(slotSchema);

export function registerAvailabilityRoutes(app: App, { db, config, now, catalogCache }: AppContext): void {
  const serializeSlots = compileSerializer(slotListSchema);
  app.get(
    '/api/availability/schedules',
    {
      schema: {
        tags: ['availability'],
        summary: 'Own weekly schedule, by day and start time',
        response: { 200: z.array(scheduleSchema), 401: errorBodySchema },
      },
    },
    async (request) => listOwnSchedules(db, actorOf(request)),
  );

  app.post(
    '/api/availability/schedules',
    {
      schema: {
        tags: ['availability'],
        summary: 'Add a weekly time range (day 0 Sunday to 6 Saturday, HH:mm); the same one twice is a 409',
        body: scheduleBodySchema,
        response: { 201: scheduleSchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const schedule = await addSchedule(db, actorOf(request), request.body);
      return reply.status(201).send(schedule);
    },
  );

  app.delete(
    '/api/availability/schedules/:id',
    {
      schema: {
        tags: ['availability'],
        summary: 'Remove one of own schedule entries',
        params: idParamsSchema,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await removeSchedule(db, actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/availability/blackouts',
    {
      schema: {
        tags: ['availability'],
        summary: 'Own blackout dates, by start date',
        response: { 200: z.array(blackoutSchema), 401: errorBodySchema },
      },
    },
    async (request) => listOwnBlackouts(db, actorOf(request)),
  );

  app.post(
    '/api/availability/blackouts',
    {
      schema: {
        tags: ['availability'],
        summary: 'Add blackout dates (YYYY-MM-DD, both ends included)',
        body: blackoutBodySchema,
        response: { 201: blackoutSchema, ...errors, 400: refusedWith([END_BEFORE_START_MESSAGE]) },
      },
    },
    async (request, reply) => {
      const blackout = await addBlackout(db, actorOf(request), request.body);
      return reply.status(201).send(blackout);
    },
  );

  app.delete(
    '/api/availability/blackouts/:id',
    {
      schema: {
        tags: ['availability'],
        summary: 'Remove one of own blackout date ranges',
        params: idParamsSchema,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await removeBlackout(db, actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/availability/slots/:sellerId',
    {
      schema: {
        tags: ['availability'],
        summary: "A seller's pickup times for the next 14 days (public)",
        params: sellerIdParamsSchema,
        response: { 200: slotListSchema, 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    // The same for everyone until the seller's schedule, blackouts or roles change (a notice drops
    // it) or the clock takes its first slot away or brings a new day (docs/rules/catalog-and-orders.md,
    // Addresses, availability and slots).
    async (request, reply) =>
      sendCachedAnswer(
        request,
        reply,
        await pickupSlotsAnswer(
          db,
          catalogCache,
          request.params.sellerId,
          config.marketplaceTz,
          now,
          serializeSlots,
        ),
        { sameForAll: true },
      ),
  );
}
