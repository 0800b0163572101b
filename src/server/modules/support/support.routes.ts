import { errorBodySchema } from '../../../domain/errors';
import { contactMessageSchema, contactReceiptSchema } from '../../../domain/support';
import type { App, AppContext } from '../../platform/context';
import { receiveContactMessage } from './support.service';

export function registerSupportRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/api/contact',
    {
      schema: {
        tags: ['support'],
        summary: 'Send a message to support',
        body: contactMessageSchema,
        response: { 201: contactReceiptSchema, 400: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const actor = await request.getActor();
      const receipt = await receiveContactMessage(
        ctx.db,
        ctx.config.supportEmail,
        ctx.rateLimits.contactPerIp,
        request.ip,
        actor?.id ?? null,
        request.body,
      );
      return reply.status(201).send(receipt);
    },
  );
}
