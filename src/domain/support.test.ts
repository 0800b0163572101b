import { describe, expect, it } from 'vitest';
import { contactMessageSchema } from './support';

describe('contact form rules', () => {
  it('gives the spec message for each short or bad field', () => {
    const result = contactMessageSchema.safeParse({
      name: 'A',
      email: 'nope',
      subject: 'Hi',
      message: 'short',
    });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(result.error!.issues.map((i) => [String(i.path[0]), i.message]));
    expect(messages).toEqual({
      name: 'Name must be at least 2 characters',
      email: 'Invalid email address',
      subject: 'Subject must be at least 3 characters',
      message: 'Message must be at least 10 characters',
    });
  });
  it('accepts a message without a phone', () => {
    expect(
      contactMessageSchema.safeParse({
        name: 'Ada',
        email: 'ada@example.com',
        subject: 'Order',
        message: 'Where is my order?',
      }).success,
    ).toBe(true);
  });
});
