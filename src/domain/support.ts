import { z } from 'zod';
import { EMAIL_JSON_SCHEMA } from './auth';
import { visibleText } from './visible-text-schema';

/** A line break or another control character: a field that goes into a mail header refuses it. */
// eslint-disable-next-line no-control-regex -- control characters are what is refused
const ONE_LINE = /^[^\u0000-\u001f\u007f\u2028\u2029]*$/;

/**
 * One line whose trimmed length is at least `min` (2 or more), as one pattern, so that JSON Schema
 * carries both rules (docs/ARCHITECTURE.md, Requests and errors): its length counts the spaces trim
 * takes away.
 */
function oneLineOfAtLeast(min: number): string {
  const space = '[^\\S\\u0000-\\u001f\\u007f\\u2028\\u2029]*';
  const edge = '[^\\s\\u0000-\\u001f\\u007f\\u2028\\u2029]';
  return `^${space}${edge}[^\\u0000-\\u001f\\u007f\\u2028\\u2029]{${min - 2},}${edge}${space}$`;
}

/**
 * Contact form (docs/rules/screens-buyer.md, Account pages), shared by the support page and POST
 * /api/contact. Name, subject and message without their invisible characters (Bad input and failure);
 * name, subject and phone on one line, as a mail header needs (docs/decisions/0019-reaching-people.md, Mail).
 */
export const contactMessageSchema = z.object({
  name: visibleText(
    z
      .string()
      .trim()
      .min(2, 'Name must be at least 2 characters')
      .max(200, 'Name is too long')
      .regex(ONE_LINE, 'Name must be on one line'),
  ).meta({ pattern: oneLineOfAtLeast(2) }),
  email: z
    .string()
    .trim()
    .pipe(z.email({ message: 'Invalid email address' }).max(254, 'Invalid email address'))
    .meta(EMAIL_JSON_SCHEMA),
  phone: z
    .string()
    .trim()
    .max(40, 'Phone number is too long')
    .regex(ONE_LINE, 'Phone number must be on one line')
    .optional()
    .or(z.literal('')),
  subject: visibleText(
    z
      .string()
      .trim()
      .min(3, 'Subject must be at least 3 characters')
      .max(200, 'Subject is too long')
      .regex(ONE_LINE, 'Subject must be on one line'),
  ).meta({ pattern: oneLineOfAtLeast(3) }),
  message: visibleText(
    z.string().trim().min(10, 'Message must be at least 10 characters').max(5000, 'Message is too long'),
  ).meta({ pattern: '^\\s*\\S[\\s\\S]{8,}\\S\\s*$' }),
});
export type ContactMessage = z.infer<typeof contactMessageSchema>;

export const contactReceiptSchema = z.object({ id: z.string(), receivedAt: z.string() });

export { COMPANY } from './company';
