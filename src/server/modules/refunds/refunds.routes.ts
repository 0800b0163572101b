import { errorBodySchema } from '../../../domain/errors';
import { orderSchema } from '../../../domain/orders';
import {
  REFUND_AMOUNT_OR_ITEMS,
  REFUND_AMOUNT_POSITIVE,
  REFUND_ITEM_UNKNOWN,
  refundFinishedOrderBodySchema,
  refundItemQuantityMessage,
} from '../../../domain/payouts';
import { idParamsSchema } from '../../../domain/users';
import { actorOf } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import { refusedWith } from '../../platform/openapi';
import { refundFinishedOrder } from './refund-order';

const ADMIN_ONLY = { roles: ['admin'], forbiddenMessage: 'You must be an admin to do this' } as const;
const errors = { 401: errorBodySchema, 403: errorBodySchema };

/** The admin's refund of a finished order (docs/decisions/0018-money-against-stripe.md, Refunds). */
export function registerRefundRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/api/admin/orders/:id/refund',
    {
      config: ADMIN_ONLY,
      schema: {
        tags: ['admin'],
        summary:
          "Admin (our addition): refund a delivered or completed order, whole or in part (an amount or items); the seller's, driver's and platform's shares are taken back in proportion",
        params: idParamsSchema,
        body: refundFinishedOrderBodySchema,
        response: {
          200: orderSchema,
          400: refusedWith([
            REFUND_AMOUNT_OR_ITEMS,
            REFUND_AMOUNT_POSITIVE,
            REFUND_ITEM_UNKNOWN,
            refundItemQuantityMessage('<product>', 1),
            refundItemQuantityMessage('<product>', 2).replace('2', '<quantity>'),
          ]),
          404: errorBodySchema,
          409: errorBodySchema,
          ...errors,
        },
      },
    },
    async (request) =>
      refundFinishedOrder(ctx.ops.refunds(request.log), actorOf(request), request.params.id, request.body),
  );
}
