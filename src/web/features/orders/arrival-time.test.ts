import { describe, expect, it } from 'vitest';
import { arrivalInputOf, initialArrivalInput, instantOfArrivalInput } from './arrival-time';

const CHICAGO = 'America/Chicago';

describe('the arrival time editor (docs/rules/deliveries.md, Deliveries; docs/rules/running.md, Dates and times)', () => {
  it('shows and reads the wall clock of the marketplace, not of the phone', () => {
    // 21:30 UTC on a November day is 15:30 in Chicago (CST, UTC-6).
    expect(arrivalInputOf('2026-11-23T21:30:00.000Z', CHICAGO)).toBe('2026-11-23T15:30');
    expect(instantOfArrivalInput('2026-11-23T15:30', CHICAGO)).toBe('2026-11-23T21:30:00.000Z');
    // In July Chicago is on CDT, UTC-5.
    expect(instantOfArrivalInput('2026-07-04T09:00', CHICAGO)).toBe('2026-07-04T14:00:00.000Z');
    expect(instantOfArrivalInput('2026-07-04T09:00', 'Asia/Tokyo')).toBe('2026-07-04T00:00:00.000Z');
  });

  it('refuses what is not a time of that zone', () => {
    expect(instantOfArrivalInput('', CHICAGO)).toBeNull();
    expect(instantOfArrivalInput('tomorrow', CHICAGO)).toBeNull();
    expect(instantOfArrivalInput('2026-02-31T10:00', CHICAGO)).toBeNull();
    expect(instantOfArrivalInput('2026-11-23T25:00', CHICAGO)).toBeNull();
    // 2:30 AM does not exist in Chicago on the morning clocks spring forward.
    expect(instantOfArrivalInput('2026-03-08T02:30', CHICAGO)).toBeNull();
  });

  it('starts at the time already set, else empty', () => {
    expect(initialArrivalInput('2026-11-23T21:30:00.000Z', CHICAGO)).toBe('2026-11-23T15:30');
    expect(initialArrivalInput(null, CHICAGO)).toBe('');
  });
});
