import { checkoutBodySchema, checkoutQuoteSchema } from '../../../domain/checkout';
import { errorBodySchema } from '../../../domain/errors';
import { actorOf } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import { compileSerializer, sendJsonBytes } from '../../platform/compiled-serializer';
import { priceCheckout } from './price-checkout';

export function registerCheckoutRoutes(app: App, { ops }: AppContext): void {
  // Every checkout asks for a quote: its answer is written by a serialiser compiled from its
  // schema rather than checked against it first (docs/decisions/0025-checkout-statements.md,
  // Answers written by compiled serialisers).
  const serializeQuote = compileSerializer(checkoutQuoteSchema);
  app.post(
    '/api/checkout/quote',
    {
      schema: {
        tags: ['checkout'],
        summary:
          'Price a cart from the database: one order per seller with its delivery fee, the totals, and every problem that stops payment',
        body: checkoutBodySchema,
        response: { 200: checkoutQuoteSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const { quote } = await priceCheckout(ops.checkout, actor, request.body);
      return sendJsonBytes(reply, serializeQuote(quote));
    },
  );
}
