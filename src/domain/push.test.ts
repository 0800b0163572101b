import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isQuietMinute, notificationPreferencesSchema, DEFAULT_NOTIFICATION_PREFERENCES } from './push';

/** Quiet hours (docs/decisions/0019-reaching-people.md, Push and the installable app). */
describe('isQuietMinute', () => {
  it('holds a span within a day, start included and end excluded', () => {
    expect(isQuietMinute(13 * 60, 13 * 60, 14 * 60)).toBe(true);
    expect(isQuietMinute(14 * 60 - 1, 13 * 60, 14 * 60)).toBe(true);
    expect(isQuietMinute(14 * 60, 13 * 60, 14 * 60)).toBe(false);
    expect(isQuietMinute(12 * 60, 13 * 60, 14 * 60)).toBe(false);
  });

  it('wraps a span past midnight', () => {
    expect(isQuietMinute(23 * 60, 22 * 60, 7 * 60)).toBe(true);
    expect(isQuietMinute(0, 22 * 60, 7 * 60)).toBe(true);
    expect(isQuietMinute(6 * 60 + 59, 22 * 60, 7 * 60)).toBe(true);
    expect(isQuietMinute(7 * 60, 22 * 60, 7 * 60)).toBe(false);
    expect(isQuietMinute(12 * 60, 22 * 60, 7 * 60)).toBe(false);
  });

  it('is never quiet without hours or with start equal to end', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1439 }), fc.integer({ min: 0, max: 1439 }), (minute, start) => {
        expect(isQuietMinute(minute, null, null)).toBe(false);
        expect(isQuietMinute(minute, start, start)).toBe(false);
      }),
    );
  });

  it('splits the day: a span and its complement never both hold a minute', () => {
    const minute = fc.integer({ min: 0, max: 1439 });
    fc.assert(
      fc.property(minute, minute, minute, (at, start, end) => {
        fc.pre(start !== end);
        expect(isQuietMinute(at, start, end)).toBe(!isQuietMinute(at, end, start));
      }),
    );
  });
});

describe('notificationPreferencesSchema', () => {
  it('needs both ends of quiet hours, each a minute of the day', () => {
    expect(notificationPreferencesSchema.safeParse(DEFAULT_NOTIFICATION_PREFERENCES).success).toBe(true);
    const withHours = { ...DEFAULT_NOTIFICATION_PREFERENCES, quietStartMinute: 1320, quietEndMinute: 420 };
    expect(notificationPreferencesSchema.safeParse(withHours).success).toBe(true);
    expect(notificationPreferencesSchema.safeParse({ ...withHours, quietEndMinute: null }).success).toBe(
      false,
    );
    expect(notificationPreferencesSchema.safeParse({ ...withHours, quietStartMinute: 1440 }).success).toBe(
      false,
    );
  });
});
