/**
 * The catalog's distance limits, in a module without zod: the home page's filter takes them on the
 * first load without building the catalog schemas (docs/decisions/0014-first-load.md).
 */

/**
 * The catalog's distance slider runs from 1 to 500 miles, the driver's from 5 (DRIVER_DISTANCE in
 * deliveries.ts); on both, 500 means any distance (docs/rules/catalog-and-orders.md, Catalog and distance;
 * docs/rules/screens-shared.md, Constants).
 */
export const MIN_DISTANCE_MILES = 1;
export const ANY_DISTANCE_MILES = 500;

/** The distance limit a query asks for, or undefined for any distance (absent, or a slider at 500). */
export function distanceLimitOf(maxDistance: number | undefined): number | undefined {
  return maxDistance === undefined || maxDistance >= ANY_DISTANCE_MILES ? undefined : maxDistance;
}
