/** A point on the earth in decimal degrees. */
export interface LatLng {
  latitude: number;
  longitude: number;
}

/** Mean earth radius (IUGG, 6371.0088 km) in statute miles. */
export const EARTH_RADIUS_MILES = 3958.7613;

const toRadians = (degrees: number) => (degrees * Math.PI) / 180;

/**
 * Great-circle distance in miles by the haversine formula
 * (docs/rules/catalog-and-orders.md, Catalog and distance: distance between the buyer's and the seller's
 * primary addresses). Accurate to well under 0.5% on a sphere, which is far finer than a ZIP-code
 * centroid.
 */
export function haversineMiles(a: LatLng, b: LatLng): number {
  const dLat = toRadians(b.latitude - a.latitude);
  const dLng = toRadians(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(toRadians(a.latitude)) * Math.cos(toRadians(b.latitude)) * Math.sin(dLng / 2) ** 2;
  // Rounding can push h a hair above 1 for antipodal points; asin would then be NaN.
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.sqrt(Math.min(1, Math.max(0, h))));
}

/** A latitude/longitude box; `longitude` is null when every longitude is inside (a pole, the date line). */
export interface BoundingBox {
  latitude: { min: number; max: number };
  longitude: { min: number; max: number } | null;
}

const toDegrees = (radians: number) => (radians * 180) / Math.PI;

/**
 * The smallest latitude/longitude box holding every point within `miles` of `center` on the sphere, widened
 * by a hair: the prefilter an index can answer before the exact haversine check
 * (docs/rules/catalog-and-orders.md, Catalog and distance; distance in the database). The longitude
 * half-width is asin(sin δ / cos φ), the widest the circle gets; when the circle reaches a pole or crosses
 * the date line, longitude is not restricted (still correct, just not narrowed).
 */
export function boundingBoxOf(center: LatLng, miles: number): BoundingBox {
  const margin = 1e-6;
  const angular = miles / EARTH_RADIUS_MILES;
  const lat = toRadians(center.latitude);
  const latitude = {
    min: Math.max(-90, toDegrees(lat - angular) - margin),
    max: Math.min(90, toDegrees(lat + angular) + margin),
  };
  if (lat + angular >= Math.PI / 2 || lat - angular <= -Math.PI / 2) return { latitude, longitude: null };
  const halfWidth = toDegrees(Math.asin(Math.min(1, Math.sin(angular) / Math.cos(lat)))) + margin;
  const min = center.longitude - halfWidth;
  const max = center.longitude + halfWidth;
  if (min < -180 || max > 180) return { latitude, longitude: null };
  return { latitude, longitude: { min, max } };
}
