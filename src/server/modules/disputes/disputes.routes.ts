import { adminDisputesSchema } from '../../../domain/disputes';
import { errorBodySchema } from '../../../domain/errors';
import type { App, AppContext } from '../../platform/context';
import { listDisputesForAdmin } from './disputes.service';

/** Admins only: the access hook answers 401 to visitors and 403 to everyone else (decision 0011). */
const ADMIN_ONLY = { roles: ['admin'], forbiddenMessage: 'You must be an admin to do this' } as const;

/** The admin's view of disputes (docs/decisions/0018-money-against-stripe.md, Disputes). */
export function registerDisputeRoutes(app: App, ctx: AppContext): void {
  const stripeTestMode = ctx.config.stripe?.secretKey.startsWith('sk_test_') ?? false;
  app.get(
    '/api/admin/disputes',
    {
      config: ADMIN_ONLY,
      schema: {
        tags: ['admin'],
        summary:
          "Admin: disputes (chargebacks) — open ones first, soonest evidence deadline first — with the payment's order numbers, amount, fee, reason, status and Stripe's dashboard link",
        response: { 200: adminDisputesSchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async () => ({ disputes: await listDisputesForAdmin(ctx.db, { stripeTestMode }) }),
  );
}
