import nodemailer, { type Transporter } from 'nodemailer';
import type { Mailer, MailMessage } from './mailer';

/**
 * Mail through an SMTP server (SMTP_URL; docs/decisions/0019-reaching-people.md, Mail): plain text
 * and HTML, from MAIL_FROM. Called by the outbox's mail deliverer only, never inside a request; a
 * failure is thrown as nodemailer reports it and {@link isPermanentMailRefusal} tells which ones
 * are final.
 */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport({
      url: smtpUrl,
      // Shorter than the outbox's lease (two minutes): a stuck server fails the try, which is retried.
      connectionTimeout: 20_000,
      greetingTimeout: 20_000,
      socketTimeout: 60_000,
    });
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html ? { html: message.html } : {}),
      ...(message.replyTo ? { replyTo: message.replyTo } : {}),
      ...(message.messageId ? { messageId: message.messageId } : {}),
      // Header values are already single-line (renderMail); nodemailer folds and encodes them.
      disableFileAccess: true,
      disableUrlAccess: true,
    });
  }

  close(): void {
    this.transport.close();
  }
}

/**
 * A refusal that sending again would meet again: the server answered 5xx (but 503, a session out
 * of step) to the recipient or to the message. Anything else (no connection, a timeout, 4xx, a
 * refused sign-in, which the operator can fix) is worth another try.
 */
export function isPermanentMailRefusal(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, responseCode } = error as { code?: string; responseCode?: number };
  if (responseCode === undefined || responseCode < 500 || responseCode >= 600 || responseCode === 503)
    return false;
  return code === 'EENVELOPE' || code === 'EMESSAGE';
}
