import { useMutation } from '@tanstack/react-query';
import { contactReceiptSchema, type ContactMessage } from '@domain/support';
import { apiSend } from '../../../lib/api-client';

export type ContactReceipt = ReturnType<typeof contactReceiptSchema.parse>;

/** POST /api/contact {name, email, phone, subject, message} -> 201 {id, receivedAt}. */
export async function sendContactMessage(message: ContactMessage): Promise<ContactReceipt> {
  return contactReceiptSchema.parse(await apiSend('POST', '/api/contact', message));
}

export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage });
}
