import type { Db } from '../../db/client';
import { enqueueOutbox } from '../../platform/outbox';
import type { MailMessage } from '../../adapters/mail/mailer';
import { escapeHtml } from '../../platform/index-html';

/**
 * Every mail the marketplace sends has this shape (docs/decisions/0019-reaching-people.md): a
 * subject, a greeting, paragraphs, at most one button-like link, and optional lines (an order's
 * items and totals), as plain text and as HTML with every given string escaped. Header fields
 * (to, subject, reply-to) are made single-line here, so no field can add a header.
 */
export interface MailContent {
  to: string;
  subject: string;
  /** "Hi Ana," (without the comma); absent: "Hello". */
  greetingName?: string | null | undefined;
  paragraphs: readonly string[];
  /** Label and absolute URL of the one thing to do. */
  action?: { label: string; url: string } | undefined;
  /** Label / value rows, e.g. an order's items and totals. */
  rows?: readonly { label: string; value: string }[] | undefined;
  replyTo?: string | undefined;
}

/** Removes CR, LF and other control characters and trims: what is left cannot start a header. */
export function singleLine(value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  return value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
}

export function renderMail(content: MailContent): MailMessage {
  const greeting = content.greetingName ? `Hi ${singleLine(content.greetingName)},` : 'Hello,';
  const rows = content.rows ?? [];
  const text = [
    greeting,
    '',
    ...content.paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...(rows.length > 0 ? [...rows.map((row) => `${row.label}: ${row.value}`), ''] : []),
    ...(content.action ? [`${content.action.label}: ${content.action.url}`, ''] : []),
    '— Local Delivery Marketplace',
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">',
    `<p>${escapeHtml(greeting)}</p>`,
    // A paragraph keeps its own line breaks (a contact message's lines).
    ...content.paragraphs.map((paragraph) => `<p style="white-space:pre-line">${escapeHtml(paragraph)}</p>`),
    rows.length > 0
      ? `<table style="border-collapse:collapse">${rows
          .map(
            (row) =>
              `<tr><td style="padding:2px 12px 2px 0">${escapeHtml(row.label)}</td><td style="padding:2px 0;text-align:right">${escapeHtml(row.value)}</td></tr>`,
          )
          .join('')}</table>`
      : '',
    content.action
      ? `<p><a href="${escapeHtml(content.action.url)}" style="display:inline-block;padding:8px 16px;background:#111;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(content.action.label)}</a></p>`
      : '',
    '<p style="color:#666">— Local Delivery Marketplace</p>',
    '</body></html>',
  ].join('');
  return {
    to: singleLine(content.to),
    subject: singleLine(content.subject),
    text,
    html,
    ...(content.replyTo ? { replyTo: singleLine(content.replyTo) } : {}),
  };
}

/**
 * Queues one mail in the outbox with the caller's handle (inside a transaction it leaves only if the
 * change commits); the notifications timer sends it.
 */
export function queueMail(
  db: Db,
  mail: { kind: string; userId: string | null; content: MailContent },
): Promise<void> {
  return enqueueOutbox(db, [
    { channel: 'mail', kind: mail.kind, userId: mail.userId, payload: renderMail(mail.content) },
  ]);
}
