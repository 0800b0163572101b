import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { EARTH_RADIUS_MILES } from '../../domain/geo';

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
