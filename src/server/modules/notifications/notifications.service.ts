import type { Db } from '../../db/client';
import type { MailMessage } from '../../adapters/mail/mailer';
import { ADMIN_PAGE_SIZE, offsetOf, pageCountOf } from '../../../domain/admin';
import { MAIL_STATUSES, type AdminMailPage, type EmailPreferences } from '../../../domain/mail';
import { findEmailPreferences, listMail, storeEmailPreferences } from './mail.queries';

/** The caller's own mail switches (docs/decisions/0019-reaching-people.md, Mail). */
export function getEmailPreferences(db: Db, userId: string): Promise<EmailPreferences> {
  return findEmailPreferences(db, userId);
}

export function setEmailPreferences(
  db: Db,
  userId: string,
  preferences: EmailPreferences,
  now: Date,
): Promise<EmailPreferences> {
  return storeEmailPreferences(db, userId, preferences, now);
}

/**
 * A link's secret as the admin's Mail tab shows it: the value of every `token` parameter, in any
 * link of the text, becomes "[hidden]" (docs/decisions/0023-accounts-an-attacker-cannot-bend.md). A
 * reset or verification link read there would let an admin take the account over; the mail that
 * goes out keeps it.
 */
export function hideLinkSecrets(text: string): string {
  return text.replace(/([?&](?:amp;)?token=)[^\s&"'<>#]+/gi, '$1[hidden]');
}

/**
 * GET /api/admin/mail: what the marketplace sent or is sending, newest first, with its state and
 * plain text, so the admin of an embedded install (where mail is only logged) can read it.
 */
export async function listMailForAdmin(db: Db, page: number): Promise<AdminMailPage> {
  const { rows, total } = await listMail(db, { limit: ADMIN_PAGE_SIZE, offset: offsetOf(page) });
  return {
    items: rows.map((row) => {
      const message = (row.payload ?? {}) as Partial<MailMessage>;
      return {
        id: row.id,
        to: String(message.to ?? ''),
        subject: String(message.subject ?? ''),
        replyTo: message.replyTo ? String(message.replyTo) : null,
        kind: row.kind,
        status: (MAIL_STATUSES as readonly string[]).includes(row.status)
          ? (row.status as AdminMailPage['items'][number]['status'])
          : 'queued',
        attempts: row.attempts,
        lastError: row.lastError,
        createdAt: row.createdAt.toISOString(),
        finishedAt: row.finishedAt?.toISOString() ?? null,
        text: hideLinkSecrets(String(message.text ?? '')),
      };
    }),
    total,
    page,
    pageSize: ADMIN_PAGE_SIZE,
    pageCount: pageCountOf(total),
    totalIsLowerBound: false,
  };
}
