import { describe, expect, it } from 'vitest';
import { checkCard, formatCardNumberInput, formatCvcInput, formatExpiryInput } from './card-input';

const now = new Date('2026-03-15T12:00:00Z');
const good = { cardNumber: '4242 4242 4242 4242', expiry: '04/27', cvc: '123', name: 'Eve' };

describe('card input as the buyer types', () => {
  it('groups card digits by four', () => {
    expect(formatCardNumberInput('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumberInput('4242-42a4')).toBe('4242 424');
    expect(formatCardNumberInput('1'.repeat(25))).toHaveLength(19 + 4);
  });

  it('adds the slash of MM/YY and lets backspace remove it', () => {
    expect(formatExpiryInput('1')).toBe('1');
    expect(formatExpiryInput('12', '1')).toBe('12/');
    expect(formatExpiryInput('12/3', '12/')).toBe('12/3');
    expect(formatExpiryInput('1234')).toBe('12/34');
    expect(formatExpiryInput('12', '12/')).toBe('12');
  });

  it('keeps 4 CVC digits at most', () => {
    expect(formatCvcInput('12a345')).toBe('1234');
  });
});

describe('card check (domain/checkout.ts rules)', () => {
  it('passes a good card, normalised', () => {
    expect(checkCard(good, now)).toEqual({
      ok: true,
      body: { cardNumber: '4242424242424242', expiry: '04/27', cvc: '123', name: 'Eve' },
    });
  });

  it('gives a message per bad field', () => {
    expect(
      checkCard({ cardNumber: '4242 4242 4242 4241', expiry: '13/27', cvc: '12', name: ' ' }, now),
    ).toEqual({
      ok: false,
      errors: {
        cardNumber: 'Card number is invalid',
        expiry: 'Expiry must be MM/YY',
        cvc: 'CVC must be 3 or 4 digits',
        name: 'Name on card is required',
      },
    });
  });

  it('refuses an expired card', () => {
    expect(checkCard({ ...good, expiry: '02/26' }, now)).toEqual({
      ok: false,
      errors: { expiry: 'Your card has expired.' },
    });
    expect(checkCard({ ...good, expiry: '03/26' }, now).ok).toBe(true);
  });
});
