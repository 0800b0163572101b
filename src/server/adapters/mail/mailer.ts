import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The same message as HTML (docs/decisions/0019-reaching-people.md); plain text alone when absent. */
  html?: string | undefined;
  replyTo?: string | undefined;
  /**
   * The Message-ID header, `<…@domain>`: one per outbox row, so a mail sent again after a crash
   * between the sending and its record is the same message to the recipient's mail client
   * (docs/operations.md, Mail). The SMTP server makes one up when absent.
   */
  messageId?: string | undefined;
}

/**
 * Outgoing mail (docs/rules/running.md, Running modes and adapters): logged in the embedded
 * default; an SMTP adapter plugs in here.
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * The embedded default: the message is already stored by its module; this writes it, text and
 * links included, to the log, which is where an embedded install delivers its mail. The admin's Mail
 * tab shows the same text with every link's secret hidden
 * (docs/decisions/0023-accounts-an-attacker-cannot-bend.md): the log is the operator's, the Mail tab
 * any admin's.
 */
export class LogMailer implements Mailer {
  constructor(private readonly log: Pick<FastifyBaseLogger, 'info'>) {}

  async send(message: MailMessage): Promise<void> {
    this.log.info(
      { mail: { to: message.to, subject: message.subject, replyTo: message.replyTo, text: message.text } },
      'mail logged',
    );
  }
}
