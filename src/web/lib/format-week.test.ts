import { describe, expect, it } from 'vitest';
import { formatWeek } from './format-week';

describe('formatWeek', () => {
  it('names a week by its Monday, whatever the time zone of the browser', () => {
    expect(formatWeek('2026-11-16')).toBe('Nov 16');
    expect(formatWeek('2026-01-05')).toBe('Jan 5');
    expect(formatWeek('2025-12-29')).toBe('Dec 29');
  });
});
