import type { Db } from '../../db/client';
import { contactMessages } from '../../db/schema';
import type { Mailer } from '../../adapters/mail/mailer';
import { tooManyRequests, waitText, type RateLimiter } from '../../platform/rate-limit';
import { COMPANY, type ContactMessage } from '../../../domain/support';

/**
 * Stores a contact message and hands it to the mailer
 * (docs/product-rules.md, Running modes and adapters: stored and logged).
 */
export async function receiveContactMessage(
  db: Db,
  mailer: Mailer,
  limiter: RateLimiter,
  ip: string,
  userId: string | null,
  body: ContactMessage,
): Promise<{ id: string; receivedAt: string }> {
  const wait = limiter.hit(ip);
  if (wait > 0)
    throw tooManyRequests(
      `You have sent several messages in a short time. Please try again in ${waitText(wait)}.`,
    );
  const rows = await db
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
  await mailer.send({
    to: COMPANY.email,
    replyTo: body.email,
    subject: `[Support] ${body.subject}`,
    text: `From: ${body.name} <${body.email}>${body.phone ? `\nPhone: ${body.phone}` : ''}\n\n${body.message}`,
  });
  return { id: row.id, receivedAt: row.createdAt.toISOString() };
}
