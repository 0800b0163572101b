import { describe, expect, it } from 'vitest';
import { distanceLimitOf, productDistanceQuerySchema, productListQuerySchema } from './catalog';

describe('the product list query', () => {
  it('pages 48 at a time by default and trims the search box', () => {
    expect(productListQuerySchema.parse({ search: '  lamp ' })).toEqual({
      search: 'lamp',
      limit: 48,
      offset: 0,
    });
    expect(productListQuerySchema.safeParse({ limit: '101' }).success).toBe(false);
  });
});

describe('the distance query (docs/rules/catalog-and-orders.md, Catalog and distance)', () => {
  it('takes 1 to 500 miles', () => {
    expect(productDistanceQuerySchema.parse({ maxDistance: '25' }).maxDistance).toBe(25);
    for (const value of ['0', '0.5', '501', 'far', ''])
      expect(productDistanceQuerySchema.safeParse({ maxDistance: value }).success, value).toBe(false);
  });

  it('reads 500, or no value, as any distance', () => {
    expect(distanceLimitOf(undefined)).toBeUndefined();
    expect(distanceLimitOf(500)).toBeUndefined();
    expect(distanceLimitOf(499)).toBe(499);
    expect(distanceLimitOf(1)).toBe(1);
  });
});
