import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../platform/context';
import type { OutboxChannel, OutboxDeliverer } from '../../platform/outbox';
import type { MailMessage } from '../../adapters/mail/mailer';
import { pushDeliverer } from './push-deliverer';

/** How each channel of the outbox is sent (docs/decisions/0019-reaching-people.md). */
export function outboxDeliverers(
  ctx: AppContext,
  _log: FastifyBaseLogger,
): Partial<Record<OutboxChannel, OutboxDeliverer>> {
  return {
    mail: async (item) => {
      await ctx.mailer.send(item.payload as MailMessage);
      return { outcome: 'sent' };
    },
    push: pushDeliverer(ctx),
  };
}
