import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EARTH_RADIUS_MILES, haversineMiles, type LatLng } from './geo';

const springfield: LatLng = { latitude: 39.8, longitude: -89.6495 }; // ZIP 62701
const chicago: LatLng = { latitude: 41.8858, longitude: -87.6181 }; // ZIP 60601
const newYork: LatLng = { latitude: 40.7128, longitude: -74.006 };
const losAngeles: LatLng = { latitude: 34.0522, longitude: -118.2437 };

const point = fc.record({
  latitude: fc.double({ min: -90, max: 90, noNaN: true }),
  longitude: fc.double({ min: -180, max: 180, noNaN: true }),
});

describe('haversineMiles', () => {
  it('is zero for the same point', () => {
    expect(haversineMiles(chicago, chicago)).toBe(0);
  });

  it('matches known distances', () => {
    // Springfield IL to downtown Chicago: about 180 miles as the crow flies.
    expect(haversineMiles(springfield, chicago)).toBeCloseTo(179, 0);
    // New York to Los Angeles: about 2,445 miles.
    expect(haversineMiles(newYork, losAngeles)).toBeCloseTo(2445, -1);
    // One degree of latitude is about 69.1 miles.
    expect(haversineMiles({ latitude: 0, longitude: 0 }, { latitude: 1, longitude: 0 })).toBeCloseTo(
      69.09,
      1,
    );
  });

  it('handles the antimeridian and the poles', () => {
    const east = { latitude: 0, longitude: 179.5 };
    const west = { latitude: 0, longitude: -179.5 };
    expect(haversineMiles(east, west)).toBeCloseTo(69.09, 1);
    expect(haversineMiles({ latitude: 90, longitude: 0 }, { latitude: 90, longitude: 120 })).toBeCloseTo(
      0,
      6,
    );
    expect(haversineMiles({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 180 })).toBeCloseTo(
      Math.PI * EARTH_RADIUS_MILES,
      6,
    );
  });

  it('is symmetric, non-negative and at most half the circumference', () => {
    fc.assert(
      fc.property(point, point, (a, b) => {
        const d = haversineMiles(a, b);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(Math.PI * EARTH_RADIUS_MILES + 1e-6);
        expect(Math.abs(d - haversineMiles(b, a))).toBeLessThan(1e-6);
      }),
    );
  });

  it('obeys the triangle inequality', () => {
    fc.assert(
      fc.property(point, point, point, (a, b, c) => {
        expect(haversineMiles(a, c)).toBeLessThanOrEqual(haversineMiles(a, b) + haversineMiles(b, c) + 1e-6);
      }),
    );
  });
});
