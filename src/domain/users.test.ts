import { describe, expect, it } from 'vitest';
import { greetingFor, NEW_ACCOUNT_MINUTES, updateNamesBodySchema } from './users';

describe('greetingFor (docs/rules/screens-buyer.md, Catalog screens)', () => {
  const now = new Date('2026-11-23T16:00:00Z');
  const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();

  it('says "Welcome" to an account made in the last few minutes', () => {
    expect(greetingFor({ createdAt: minutesAgo(0) }, now)).toBe('Welcome');
    expect(greetingFor({ createdAt: minutesAgo(NEW_ACCOUNT_MINUTES - 1) }, now)).toBe('Welcome');
  });

  it('says "Welcome back" to an older account', () => {
    expect(greetingFor({ createdAt: minutesAgo(NEW_ACCOUNT_MINUTES) }, now)).toBe('Welcome back');
    expect(greetingFor({ createdAt: '2025-01-01T00:00:00Z' }, now)).toBe('Welcome back');
    expect(greetingFor({ createdAt: 'garbage' }, now)).toBe('Welcome back');
  });
});

describe('names are one line (docs/rules/running.md, Bad input and failure)', () => {
  it('refuses a line break or another control character in a first or last name, per field', () => {
    const parsed = updateNamesBodySchema.safeParse({
      firstName: 'Ana\r\nBcc: x',
      lastName: 'Li\u2029' + 'Lo',
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['firstName', 'First name must be on one line'],
      ['lastName', 'Last name must be on one line'],
    ]);
    expect(updateNamesBodySchema.parse({ firstName: 'Ana', lastName: 'Li Lo' })).toEqual({
      firstName: 'Ana',
      lastName: 'Li Lo',
    });
  });
});
