import { z } from 'zod';
import { visibleText } from './visible-text-schema';

/**
 * Contact form (docs/product-rules.md, Account pages), shared by the support page and POST
 * /api/contact. Name, subject and message without their invisible characters (Bad input and failure).
 */
export const contactMessageSchema = z.object({
  name: visibleText(
    z.string().trim().min(2, 'Name must be at least 2 characters').max(200, 'Name is too long'),
  ),
  email: z
    .string()
    .trim()
    .pipe(z.email({ message: 'Invalid email address' }).max(254, 'Invalid email address')),
  phone: z.string().trim().max(40, 'Phone number is too long').optional().or(z.literal('')),
  subject: visibleText(
    z.string().trim().min(3, 'Subject must be at least 3 characters').max(200, 'Subject is too long'),
  ),
  message: visibleText(
    z.string().trim().min(10, 'Message must be at least 10 characters').max(5000, 'Message is too long'),
  ),
});
export type ContactMessage = z.infer<typeof contactMessageSchema>;

export const contactReceiptSchema = z.object({ id: z.string(), receivedAt: z.string() });

export { COMPANY } from './company';
