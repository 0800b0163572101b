import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundingBoxOf, EARTH_RADIUS_MILES, haversineMiles, type LatLng } from './geo';

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

  it('obeys the triangle inequality, up to float rounding', () => {
    // Near antipodal points asin(√h) magnifies rounding: h one ulp off moves a distance by up to
    // 2·R·√ε ≈ 0.00012 miles (searching found 0.000075; a fixed 1e-6 failed). Each of the three
    // distances may carry that; a real error in the formula is off by miles.
    const rounding = 3 * 2 * EARTH_RADIUS_MILES * Math.sqrt(Number.EPSILON);
    // A case that is off by 0.000075 miles: a and c nearly antipodal, b right beside a.
    const nearlyAntipodal: [LatLng, LatLng, LatLng] = [
      { latitude: 0, longitude: 0 },
      { latitude: 6.264130801648733e-7, longitude: 0 },
      { latitude: 0, longitude: 179.99999999999972 },
    ];
    fc.assert(
      fc.property(point, point, point, (a, b, c) => {
        expect(haversineMiles(a, c)).toBeLessThanOrEqual(
          haversineMiles(a, b) + haversineMiles(b, c) + rounding,
        );
      }),
      { examples: [nearlyAntipodal] },
    );
  });
});

describe('boundingBoxOf', () => {
  const inside = (box: ReturnType<typeof boundingBoxOf>, p: LatLng) =>
    p.latitude >= box.latitude.min &&
    p.latitude <= box.latitude.max &&
    (box.longitude === null || (p.longitude >= box.longitude.min && p.longitude <= box.longitude.max));

  it('is about 25 miles each way around Chicago', () => {
    const box = boundingBoxOf(chicago, 25);
    expect(box.latitude.max - chicago.latitude).toBeCloseTo(25 / 69.09, 3);
    // A degree of longitude is shorter up north: about 51.5 miles at 41.9°.
    expect((box.longitude?.max ?? 0) - chicago.longitude).toBeCloseTo(25 / 51.46, 2);
  });

  it('leaves longitude open around a pole and across the date line', () => {
    expect(boundingBoxOf({ latitude: 89.9, longitude: 0 }, 50).longitude).toBeNull();
    expect(boundingBoxOf({ latitude: 0, longitude: 179.9 }, 50).longitude).toBeNull();
  });

  it('holds every point within the distance', () => {
    fc.assert(
      fc.property(point, point, fc.double({ min: 1, max: 500, noNaN: true }), (center, other, miles) => {
        if (haversineMiles(center, other) <= miles)
          expect(inside(boundingBoxOf(center, miles), other)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('holds every point near its edge too', () => {
    // Random points are rarely near a small circle; walk to points at exactly the distance instead.
    fc.assert(
      fc.property(
        fc.record({
          latitude: fc.double({ min: -80, max: 80, noNaN: true }),
          longitude: fc.double({ min: -170, max: 170, noNaN: true }),
        }),
        fc.double({ min: 1, max: 500, noNaN: true }),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        (center, miles, bearing) => {
          const edge = destination(center, miles * 0.999999, bearing);
          expect(inside(boundingBoxOf(center, miles), edge)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

/** The point `miles` from `from` along the initial bearing (radians), on the same sphere. */
function destination(from: LatLng, miles: number, bearing: number): LatLng {
  const d = miles / EARTH_RADIUS_MILES;
  const lat1 = (from.latitude * Math.PI) / 180;
  const lng1 = (from.longitude * Math.PI) / 180;
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(bearing));
  const lng2 =
    lng1 +
    Math.atan2(
      Math.sin(bearing) * Math.sin(d) * Math.cos(lat1),
      Math.cos(d) - Math.sin(lat1) * Math.sin(lat2),
    );
  return { latitude: (lat2 * 180) / Math.PI, longitude: (lng2 * 180) / Math.PI };
}
