import { describe, expect, it } from 'vitest';
import { formatCount } from './format-count';

describe('formatCount', () => {
  it('writes whole numbers as toLocaleString does in en-US', () => {
    for (const value of [0, 7, 999, 1000, 1250, 12345, 999999, 1000000, 1234567890, -5, -1000, -1234567])
      expect(formatCount(value)).toBe(value.toLocaleString('en-US'));
  });

  it('leaves other numbers to toLocaleString', () => {
    expect(formatCount(1234.5)).toBe('1,234.5');
    expect(formatCount(Number.NaN)).toBe('NaN');
  });
});
