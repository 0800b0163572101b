import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { boundingBoxOf, EARTH_RADIUS_MILES, type LatLng } from '../../domain/geo';

/** A point in SQL: two float8 expressions in decimal degrees. */
export interface SqlPoint {
  latitude: SQL | AnyColumn;
  longitude: SQL | AnyColumn;
}

/** The coordinates of an address table (numeric columns) as a float8 point. */
export function pointOf(address: { latitude: AnyColumn; longitude: AnyColumn }): SqlPoint {
  return { latitude: sql`${address.latitude}::float8`, longitude: sql`${address.longitude}::float8` };
}

/**
 * Great-circle miles between two points, by the haversine formula on the sphere of
 * `haversineMiles` in src/domain/geo.ts (docs/rules/catalog-and-orders.md, Catalog and distance), for the
 * database to filter and sort by. Null when either point is (partly) null.
 */
export function haversineMilesSql(a: SqlPoint, b: SqlPoint): SQL<number | null> {
  // least(1, …) keeps asin defined when rounding pushes the term a hair above 1; it would also
  // skip a null, hence the explicit null case.
  return sql<number | null>`(case
    when ${a.latitude} is null or ${a.longitude} is null or ${b.latitude} is null or ${b.longitude} is null
      then null::float8
    else 2 * ${EARTH_RADIUS_MILES}::float8 * asin(least(1::float8, sqrt(
      power(sin(radians(${b.latitude} - ${a.latitude}) / 2), 2)
      + cos(radians(${a.latitude})) * cos(radians(${b.latitude}))
        * power(sin(radians(${b.longitude} - ${a.longitude}) / 2), 2))))
    end)`;
}

/**
 * The rings of doubling radius a nearest-first page is read in (1, 2, 4, … miles up to the limit,
 * or the whole earth), as a table `ring(inner_miles, outer_miles, lat_min, lat_max, lng_min, lng_max, k)`
 * to join laterally: ring k holds the points whose exact distance is in (inner, outer], found
 * through the box of its outer circle on a location index. The rings partition the points by
 * distance, so ordering by ring, then distance, is ordering by distance, and a limit stops at the
 * first ring that fills the page (docs/decisions/0015-catalog-and-checkout-throughput.md, A kept
 * answer sent before the hooks, and the distance query in rings).
 */
export function distanceRingsSql(origin: LatLng, maxDistance: number | undefined): SQL {
  return ringsTableSql(distanceRingArrays(origin, maxDistance));
}

/**
 * The rings' six columns as PostgreSQL array literals, each one parameter: for a statement built once
 * with `distanceRingsPlaceholders` (src/server/db/built-once.ts), whose parameters they are.
 */
export function distanceRingArrays(origin: LatLng, maxDistance: number | undefined) {
  const rings = distanceRingsOf(origin, maxDistance);
  return {
    ringInner: arrayLiteral(rings.map((r) => r.inner)),
    ringOuter: arrayLiteral(rings.map((r) => r.outer)),
    ringLatMin: arrayLiteral(
      rings.map((r) => r.latitude.min),
      7,
    ),
    ringLatMax: arrayLiteral(
      rings.map((r) => r.latitude.max),
      7,
    ),
    ringLngMin: arrayLiteral(
      rings.map((r) => r.longitude.min),
      7,
    ),
    ringLngMax: arrayLiteral(
      rings.map((r) => r.longitude.max),
      7,
    ),
  };
}

/** The table of `distanceRingsSql` with placeholders named as `distanceRingArrays`' keys. */
export function distanceRingsPlaceholders(): SQL {
  return ringsTableSql({
    ringInner: sql.placeholder('ringInner'),
    ringOuter: sql.placeholder('ringOuter'),
    ringLatMin: sql.placeholder('ringLatMin'),
    ringLatMax: sql.placeholder('ringLatMax'),
    ringLngMin: sql.placeholder('ringLngMin'),
    ringLngMax: sql.placeholder('ringLngMax'),
  });
}

function ringsTableSql(arrays: Record<keyof ReturnType<typeof distanceRingArrays>, unknown>): SQL {
  return sql`unnest(
      ${arrays.ringInner}::float8[], ${arrays.ringOuter}::float8[],
      ${arrays.ringLatMin}::numeric[], ${arrays.ringLatMax}::numeric[],
      ${arrays.ringLngMin}::numeric[], ${arrays.ringLngMax}::numeric[])
    with ordinality as ring(inner_miles, outer_miles, lat_min, lat_max, lng_min, lng_max, k)`;
}

/** The first ring's outer radius in miles; each next ring doubles it. */
const FIRST_RING_MILES = 1;
/** Past this every point on the earth is inside (half the circumference is about 12,437 miles). */
const WHOLE_EARTH_MILES = 16_384;

/**
 * The rings the sellers are read in, nearest first: distances in (inner, outer], outer 1, 2, 4, …
 * miles up to the limit (or the whole earth), each with the box that holds its outer circle.
 */
function distanceRingsOf(origin: LatLng, maxDistance: number | undefined) {
  const last = maxDistance ?? WHOLE_EARTH_MILES;
  const outer: number[] = [];
  for (let miles = FIRST_RING_MILES; miles < last; miles *= 2) outer.push(miles);
  outer.push(last);
  return outer.map((miles, i) => {
    const box = maxDistance === undefined && miles === last ? undefined : boundingBoxOf(origin, miles);
    return {
      // The first ring starts below zero so that a seller at the buyer's own place is in it.
      inner: i === 0 ? -1 : (outer[i - 1] ?? 0),
      outer: maxDistance === undefined && miles === last ? Infinity : miles,
      latitude: box?.latitude ?? { min: -90, max: 90 },
      longitude: box?.longitude ?? { min: -180, max: 180 },
    };
  });
}

/** A PostgreSQL array literal of numbers, passed as one parameter (the same on both drivers). */
function arrayLiteral(values: number[], digits?: number): string {
  const item = (value: number) => {
    if (value === Infinity) return 'Infinity';
    return digits === undefined ? String(value) : value.toFixed(digits);
  };
  return `{${values.map(item).join(',')}}`;
}
