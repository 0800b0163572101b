import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../platform/context';
import type { OutboxChannel, OutboxDeliverer } from '../../platform/outbox';
import type { MailMessage } from '../../adapters/mail/mailer';
import { pushDeliverer } from './push-deliverer';
import { isPermanentMailRefusal } from '../../adapters/mail/smtp-mailer';
import { accountRequestDeliverer } from '../auth/account-requests';

/** How each channel of the outbox is sent (docs/decisions/0019-reaching-people.md). */
export function outboxDeliverers(
  ctx: AppContext,
  log: FastifyBaseLogger,
): Partial<Record<OutboxChannel, OutboxDeliverer>> {
  const messageIds = outboxMessageIds(ctx.config.siteUrl, ctx.config.mailFrom);
  return {
    mail: async (item) => {
      try {
        await ctx.mailer.send({ ...(item.payload as MailMessage), messageId: messageIds(item.id) });
        return { outcome: 'sent' };
      } catch (error) {
        const text = describeMailError(error);
        // A recipient or message the server refused for good (5xx) is dropped; a connection that
        // failed, a timeout or a 4xx is tried again (docs/decisions/0019-reaching-people.md, Mail).
        if (isPermanentMailRefusal(error)) {
          log.warn({ outboxId: item.id, kind: item.kind, error: text }, 'mail refused for good');
          return { outcome: 'drop', reason: text };
        }
        log.warn({ outboxId: item.id, kind: item.kind, error: text }, 'mail not sent; will retry');
        return { outcome: 'retry', error: text };
      }
    },
    push: pushDeliverer(ctx),
    // Account requests answered alike for every address, done after the answer
    // (docs/decisions/0023-accounts-an-attacker-cannot-bend.md).
    account: accountRequestDeliverer({ db: ctx.db, siteUrl: ctx.config.siteUrl, now: ctx.now }),
  };
}

/**
 * The Message-ID of an outbox row's mail: the same at every try of that row (docs/operations.md,
 * Mail), and unlike another marketplace's (a staging site) sending as the same domain: the row's id,
 * a short hash of this site's address, at the domain of MAIL_FROM.
 */
function outboxMessageIds(siteUrl: string, mailFrom: string): (outboxId: number) => string {
  const site = crypto.createHash('sha256').update(siteUrl).digest('hex').slice(0, 10);
  const domain = /@([^\s<>@]+)>?\s*$/.exec(mailFrom)?.[1] ?? 'localhost';
  return (outboxId) => `<outbox-${outboxId}.${site}@${domain}>`;
}

function describeMailError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.slice(0, 500);
}
