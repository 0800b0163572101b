import type { Db } from '../../db/client';
import { contactMessages } from '../../db/schema';
import { tooManyRequests, waitText, type RateLimiter } from '../../platform/rate-limit';
import { queueMail } from '../notifications/mail-layout';
import type { ContactMessage } from '../../../domain/support';

/**
 * Stores a contact message and queues it, in one transaction, as a mail to the support address with
 * the sender as reply-to; the notifications timer sends it, never this request
 * (docs/decisions/0019-reaching-people.md, Mail).
 */
export async function receiveContactMessage(
  db: Db,
  supportEmail: string,
  limiter: RateLimiter,
  ip: string,
  userId: string | null,
  body: ContactMessage,
): Promise<{ id: string; receivedAt: string }> {
  const wait = await limiter.hit(db, ip);
  if (wait > 0)
    throw tooManyRequests(
      `You have sent several messages in a short time. Please try again in ${waitText(wait)}.`,
    );
  return db.transaction(async (tx) => {
    const rows = await tx
      .insert(contactMessages)
      .values({
        userId,
        name: body.name,
        email: body.email,
        phone: body.phone ? body.phone : null,
        subject: body.subject,
        message: body.message,
      })
      .returning({ id: contactMessages.id, createdAt: contactMessages.createdAt });
    const row = rows[0];
    if (!row) throw new Error('insert returned no row');
    await queueMail(tx, {
      kind: 'contact_message',
      userId: null,
      content: {
        to: supportEmail,
        replyTo: body.email,
        subject: `[Support] ${body.subject}`,
        greetingName: null,
        paragraphs: [
          `${body.name} <${body.email}>${body.phone ? `, phone ${body.phone}` : ''} wrote through the contact form:`,
          body.message,
        ],
        rows: [{ label: 'Message number', value: row.id }],
      },
    });
    return { id: row.id, receivedAt: row.createdAt.toISOString() };
  });
}
