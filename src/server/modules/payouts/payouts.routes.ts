import { Readable } from 'node:stream';
import { errorBodySchema } from '../../../domain/errors';
import { adminPayoutsSchema, failedPayoutSchema, myPayoutsSchema } from '../../../domain/payouts';
import { idParamsSchema } from '../../../domain/users';
import { actorOf } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import { csvFile } from '../../platform/openapi';
import { ledgerCsvLines } from '../ledger/ledger-csv';
import { getAdminPayouts, getMyPayouts } from './payout-views';
import { retryPayout } from './retry-payout';

const ADMIN_ONLY = { roles: ['admin'], forbiddenMessage: 'You must be an admin to do this' } as const;
const errors = { 401: errorBodySchema, 403: errorBodySchema };

/** Payouts to sellers and drivers and the ledger export (docs/decisions/0013-money-movement.md). */
export function registerPayoutRoutes(app: App, ctx: AppContext): void {
  const { db } = ctx;

  app.get(
    '/api/payouts',
    {
      config: { roles: ['seller', 'driver', 'admin'] },
      schema: {
        tags: ['payouts'],
        summary:
          "The caller's payouts as a seller or driver, newest first, per order, with the sums owed, paid out and reversed",
        response: { 200: myPayoutsSchema, ...errors, 404: errorBodySchema },
      },
    },
    async (request) => getMyPayouts(db, actorOf(request)),
  );

  app.get(
    '/api/admin/payouts',
    {
      config: ADMIN_ONLY,
      schema: {
        tags: ['admin'],
        summary:
          "Admin: the platform's balance (fees less fees refunded and the provider's fees; may be negative), what is owed to sellers and drivers, and failing payouts",
        response: { 200: adminPayoutsSchema, ...errors },
      },
    },
    async () => getAdminPayouts(db),
  );

  app.get(
    '/api/admin/ledger.csv',
    {
      config: ADMIN_ONLY,
      schema: {
        tags: ['admin'],
        summary: 'Admin: every ledger entry (charges, refunds, transfers, reversals, platform fees) as CSV',
        response: { 200: csvFile('The ledger as comma-separated values, a download'), ...errors },
      },
    },
    async (request, reply) => {
      actorOf(request);
      const day = ctx.now().toISOString().slice(0, 10);
      return (
        reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="ledger-${day}.csv"`)
          // Streamed page by page: the typed reply knows only the schema's string, which a stream is sent as.
          .send(Readable.from(ledgerCsvLines(db)) as unknown as string)
      );
    },
  );

  app.post(
    '/api/admin/payouts/:id/retry',
    {
      config: ADMIN_ONLY,
      schema: {
        tags: ['admin'],
        summary: 'Admin: send a payout the provider refused again, now; answers the payout after the attempt',
        params: idParamsSchema,
        response: { 200: failedPayoutSchema, 404: errorBodySchema, 409: errorBodySchema, ...errors },
      },
    },
    async (request) => retryPayout(ctx.ops.payouts(request.log), actorOf(request), request.params.id),
  );
}
