import { describe, expect, it } from 'vitest';
import { canSendMessage, MESSAGE_MAX_LENGTH, messageContentSchema } from './messages';

// What a message box may send (docs/rules/selling.md, Reviews and messages).
describe('messages', () => {
  it('never sends blank or whitespace-only text', () => {
    for (const text of ['', ' ', '\n', '\t \n  ']) expect(canSendMessage(text)).toBe(false);
    expect(canSendMessage(' hi ')).toBe(true);
  });

  it('sends at most 2,000 characters, counted after trimming', () => {
    expect(canSendMessage('a'.repeat(MESSAGE_MAX_LENGTH))).toBe(true);
    expect(canSendMessage('a'.repeat(MESSAGE_MAX_LENGTH + 1))).toBe(false);
    expect(canSendMessage(` ${'a'.repeat(MESSAGE_MAX_LENGTH)}\n`)).toBe(true);
    expect(messageContentSchema.parse('  two\nlines \n')).toBe('two\nlines');
  });
});
