import { z } from 'zod';
import { pageOf } from './admin';

/**
 * Mail (docs/decisions/0019-reaching-people.md, Mail): a user's mail switches, and the admin's Mail
 * tab, which reads what the marketplace sent (or, on the embedded default, kept and logged).
 */

export const emailPreferencesSchema = z.object({
  /** A driver's "new delivery offers near me" mail; off until turned on. */
  offerAlerts: z.boolean({ message: 'offerAlerts must be true or false' }),
});
export type EmailPreferences = z.infer<typeof emailPreferencesSchema>;

export const adminMailQuerySchema = z.object({
  page: z.coerce
    .number({ message: 'Must be a page number' })
    .int('Must be a whole page number')
    .min(1, 'Pages start at 1')
    .max(100_000, 'Must be at most 100000')
    .default(1),
});

export const MAIL_STATUSES = ['queued', 'sent', 'failed', 'dropped'] as const;

export const adminMailSchema = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  replyTo: z.string().nullable(),
  /** The template, e.g. order_receipt. */
  kind: z.string(),
  status: z.enum(MAIL_STATUSES),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  /** When it was sent, dropped or given up on; null while queued. */
  finishedAt: z.string().nullable(),
  /** The plain-text body. */
  text: z.string(),
});
export type AdminMail = z.infer<typeof adminMailSchema>;
export const adminMailPageSchema = pageOf(adminMailSchema);
export type AdminMailPage = z.infer<typeof adminMailPageSchema>;
