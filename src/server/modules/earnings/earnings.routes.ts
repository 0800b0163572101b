import { errorBodySchema } from '../../../domain/errors';
import {
  seller30DaySalesSchema,
  sellerEarningsSchema,
  sellerIdParamsSchema,
  weeklyEarningsSchema,
} from '../../../domain/earnings';
import { actorOf } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import { getSeller30DaySales, getSellerEarnings, getWeeklySellerEarnings } from './earnings.service';

const errors = { 401: errorBodySchema, 403: errorBodySchema };

/** A seller's earnings (docs/rules/selling.md, Seller earnings), for sellers and admins. */
export function registerEarningsRoutes(app: App, { db, config, now }: AppContext): void {
  const sellerOnly = { roles: ['seller', 'admin'] as const };

  app.get(
    '/api/earnings/seller',
    {
      config: sellerOnly,
      schema: {
        tags: ['earnings'],
        summary:
          "The caller's earnings as a seller: sellerEarnings of delivered and completed orders, and their count, each with its change over the last 7 days against the 7 before",
        response: { 200: sellerEarningsSchema, ...errors },
      },
    },
    async (request) => getSellerEarnings(db, actorOf(request), now()),
  );

  app.get(
    '/api/earnings/seller/weekly',
    {
      config: sellerOnly,
      schema: {
        tags: ['earnings'],
        summary:
          "The caller's seller earnings per week (Monday to Sunday, marketplace time zone) for the last 12 weeks, oldest first",
        response: { 200: weeklyEarningsSchema, ...errors },
      },
    },
    async (request) =>
      getWeeklySellerEarnings(db, actorOf(request), { now: now(), timeZone: config.marketplaceTz }),
  );

  app.get(
    '/api/earnings/seller-30day/:userId',
    {
      config: sellerOnly,
      schema: {
        tags: ['earnings'],
        summary:
          "A seller's product sales of the last 30 days (not cancelled), the base of the loyalty discount; own id or admin",
        params: sellerIdParamsSchema,
        response: { 200: seller30DaySalesSchema, 400: errorBodySchema, 404: errorBodySchema, ...errors },
      },
    },
    async (request) => getSeller30DaySales(db, actorOf(request), request.params.userId, now()),
  );
}
