import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import {
  adminActivityPageSchema,
  adminActivityQuerySchema,
  adminCategoriesQuerySchema,
  adminCategoryPageSchema,
  adminDriverPageSchema,
  adminDriverSchema,
  adminDriversQuerySchema,
  adminOrderPageSchema,
  adminOrdersCsvQuerySchema,
  adminOrdersQuerySchema,
  adminProductPageSchema,
  adminProductsCsvQuerySchema,
  adminProductsQuerySchema,
  adminSummarySchema,
  adminUserDetailSchema,
  adminUserPageSchema,
  adminUsersCsvQuerySchema,
  adminUsersQuerySchema,
  verifyDriverBodySchema,
  ORDER_DATE_RANGE_MESSAGE,
} from '../../../domain/admin';
import { errorBodySchema } from '../../../domain/errors';
import { idParamsSchema } from '../../../domain/users';
import { actorOf } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import { csvFile, refusedWith } from '../../platform/openapi';
import { listAdminActivity } from '../audit/audit.service';
import { ordersCsvLines, productsCsvLines, usersCsvLines } from './admin-exports';
import {
  getSummary,
  getUserDetail,
  listCategories,
  listDrivers,
  listOrders,
  listProducts,
  listUsers,
} from './admin.service';
import { verifyDriver } from './verify-driver';

/** Admins only: the access hook answers 401 to visitors and 403 to everyone else (decision 0011). */
const ADMIN_ONLY = { roles: ['admin'], forbiddenMessage: 'You must be an admin to do this' } as const;

const listErrors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };

/** A CSV answer, as the OpenAPI document shows it (the ledger export's way). */
const csvAnswer = csvFile('The list as comma-separated values, a download');

/** Streams an export as it is read, as an attachment named after the list and the day. */
function sendCsv(reply: FastifyReply, list: string, now: Date, lines: AsyncGenerator<string>) {
  const day = now.toISOString().slice(0, 10);
  return (
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${list}-${day}.csv"`)
      // The typed reply knows only the schema's string, which a stream is sent as.
      .send(Readable.from(lines) as unknown as string)
  );
}

/** The admin dashboard's calls (docs/rules/known-differences.md, Admin); every list 10 rows a page. */
export function registerAdminRoutes(app: App, ctx: AppContext): void {
  const { db } = ctx;

  app.get(
    '/api/admin/summary',
    {
      config: ADMIN_ONLY,
      schema: {
        tags: ['admin'],
        summary:
          'Admin: total users, orders and products; revenue (platform fees of orders not cancelled); each with its change over the last 7 days against the 7 before',
        response: { 200: adminSummarySchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async () => getSummary(db, ctx.now()),
  );

  app.get(
    '/api/admin/users',
    {
      config: ADMIN_ONLY,
      schema: {
        tags: ['admin'],
        summary: 'Admin: users newest first, 10 a page; search by name or email, filter by role',
        querystring: adminUsersQuerySchema,
        response: { 200: adminUserPageSchema, ...listErrors },
      },
    },
    async (request) => listUsers(db, request.query),
  );

  app.get(
    '/api/admin/users/:id',
    {
      config: ADMIN_ONLY,
      schema: {
        tags: ['admin'],
        summary:
          "Admin: a user's details: roles, suspension, driver documents on file, payout account, addresses, and their orders as buyer, seller and driver",
        params: idParamsSchema,
        response: { 200: adminUserDetailSchema, ...listErrors, 404: errorBodySchema },
      },
    },
    async (request) => getUserDetail(db, request.params.id),
  );

  app.get(
    '/api/admin/users.csv',
    {
      config: ADMIN_ONLY,
      schema: {
        tags: ['admin'],
        summary: "Admin: every user the users list's filters match, newest first, as CSV",
        querystring: adminUsersCsvQuerySchema,
        response: { 200: csvAnswer, ...listErrors },
      },
    },
    async (request, reply) => sendCsv(reply, 'users', ctx.now(), usersCsvLines(db, request.query)),
  );

  app.get(
    '/api/admin/orders',
    {
      config: ADMIN_ONLY,
      schema: {
        tags: ['admin'],
        summary:
          'Admin: orders newest first, 10 a page; search by order number, filter by status, buyer, seller, driver (name or email) and the days placed on',
        querystring: adminOrdersQuerySchema,
        response: { 200: adminOrderPageSchema, ...listErrors, 400: refusedWith([ORDER_DATE_RANGE_MESSAGE]) },
      },
    },
    async (request) => listOrders(db, request.query, ctx.config.marketplaceTz),
  );

  app.get(
    '/api/admin/orders.csv',
    {
      config: ADMIN_ONLY,
      schema: {
        tags: ['admin'],
        summary: "Admin: every order the orders list's filters match, newest first, as CSV",
        querystring: adminOrdersCsvQuerySchema,
        response: { 200: csvAnswer, ...listErrors, 400: refusedWith([ORDER_DATE_RANGE_MESSAGE]) },
      },
    },
    async (request, reply) =>
      sendCsv(reply, 'orders', ctx.now(), ordersCsvLines(db, request.query, ctx.config.marketplaceTz)),
  );

  app.get(
    '/api/admin/products',
    {
      config: ADMIN_ONLY,
      schema: {
        tags: ['admin'],
        summary: 'Admin: every product newest first, 10 a page; search, category, active or inactive',
        querystring: adminProductsQuerySchema,
        response: { 200: adminProductPageSchema, ...listErrors },
      },
    },
    async (request) => listProducts(db, request.query),
  );

  app.get(
    '/api/admin/products.csv',
    {
      config: ADMIN_ONLY,
      schema: {
        tags: ['admin'],
        summary: "Admin: every product the products list's filters match, newest first, as CSV",
        querystring: adminProductsCsvQuerySchema,
        response: { 200: csvAnswer, ...listErrors },
      },
    },
    async (request, reply) => sendCsv(reply, 'products', ctx.now(), productsCsvLines(db, request.query)),
  );

  app.get(
    '/api/admin/categories',
    {
      config: ADMIN_ONLY,
      schema: {
        tags: ['admin'],
        summary: 'Admin: categories by name with how many products use each, 10 a page; search by name',
        querystring: adminCategoriesQuerySchema,
        response: { 200: adminCategoryPageSchema, ...listErrors },
      },
    },
    async (request) => listCategories(db, request.query),
  );

  app.get(
    '/api/admin/drivers',
    {
      config: ADMIN_ONLY,
      schema: {
        tags: ['admin'],
        summary: 'Admin: drivers with their images and last decision, pending first, 10 a page',
        querystring: adminDriversQuerySchema,
        response: { 200: adminDriverPageSchema, ...listErrors },
      },
    },
    async (request) => listDrivers(db, request.query),
  );

  app.patch(
    '/api/admin/drivers/:id/verify',
    {
      config: ADMIN_ONLY,
      schema: {
        tags: ['admin'],
        summary:
          'Admin: approve (true; needs the vehicle and license images, else 409), reject or revoke (false) a driver',
        params: idParamsSchema,
        body: verifyDriverBodySchema,
        response: {
          200: adminDriverSchema,
          ...listErrors,
          404: errorBodySchema,
          409: errorBodySchema,
        },
      },
    },
    async (request) =>
      verifyDriver(
        db,
        actorOf(request),
        request.params.id,
        request.body.isVerified,
        ctx.now(),
        ctx.config.siteUrl,
      ),
  );

  app.get(
    '/api/admin/activity',
    {
      config: ADMIN_ONLY,
      schema: {
        tags: ['admin'],
        summary: 'Admin: the audit trail of admin actions, newest first, 10 a page',
        querystring: adminActivityQuerySchema,
        response: { 200: adminActivityPageSchema, ...listErrors },
      },
    },
    async (request) => listAdminActivity(db, request.query),
  );
}
