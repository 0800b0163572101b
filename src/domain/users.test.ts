import { describe, expect, it } from 'vitest';
import { greetingFor, NEW_ACCOUNT_MINUTES } from './users';

describe('greetingFor (docs/product-rules.md, Catalog screens)', () => {
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
