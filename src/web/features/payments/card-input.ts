import {
  CARD_EXPIRED_MESSAGE,
  isExpired,
  parseExpiry,
  paymentConfirmBodySchema,
  type PaymentConfirmBody,
} from '@domain/checkout';
import { fieldErrorsFromZod } from '../../lib/use-schema-form';

/** What the test provider's card form holds, as typed. */
export interface CardFormValues {
  cardNumber: string;
  expiry: string;
  cvc: string;
  name: string;
}

export const EMPTY_CARD: CardFormValues = { cardNumber: '', expiry: '', cvc: '', name: '' };

/** "4242424242424242" → "4242 4242 4242 4242", at most 19 digits, as the buyer types. */
export function formatCardNumberInput(input: string): string {
  const digits = input.replace(/\D/g, '').slice(0, 19);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * "1", "12", "123" → "1", "12/", "12/3": the slash comes by itself. Deleting the slash (the value
 * is then two digits, one shorter than before) leaves the month alone so backspace keeps working.
 */
export function formatExpiryInput(input: string, previous = ''): string {
  const digits = input.replace(/\D/g, '').slice(0, 4);
  if (digits.length === 2 && previous.length === 3 && input.length === 2) return digits;
  if (digits.length >= 2) return `${digits.slice(0, 2)}/${digits.slice(2)}`;
  return digits;
}

export function formatCvcInput(input: string): string {
  return input.replace(/\D/g, '').slice(0, 4);
}

export type CardCheck =
  | { ok: true; body: PaymentConfirmBody }
  | { ok: false; errors: Partial<Record<keyof CardFormValues, string>> };

/** The card rules of domain/checkout.ts, checked before sending (the server checks them again). */
export function checkCard(values: CardFormValues, now: Date): CardCheck {
  const parsed = paymentConfirmBodySchema.required().safeParse(values);
  if (!parsed.success) return { ok: false, errors: fieldErrorsFromZod(parsed.error) };
  const expiry = parseExpiry(values.expiry);
  if (expiry && isExpired(expiry, now)) return { ok: false, errors: { expiry: CARD_EXPIRED_MESSAGE } };
  return { ok: true, body: parsed.data };
}
