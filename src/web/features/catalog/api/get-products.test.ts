import { describe, expect, it } from 'vitest';
import { makeProduct } from '../testing/make-product';
import {
  normaliseProductQuery,
  productsInfiniteQueryOptions,
  productsUrl,
  uniqueProducts,
  type ProductQuery,
} from './get-products';

const plain: ProductQuery = { search: '', category: 'All', maxDistance: null };

describe('the grid URL (docs/rules/screens-shared.md, Client behaviour; docs/rules/catalog-and-orders.md, Catalog and distance)', () => {
  it('reads the plain list while the distance filter is off', () => {
    expect(productsUrl(plain)).toBe('/api/products');
    expect(productsUrl({ ...plain, search: '  Lamp ', category: 'Furniture' })).toBe(
      '/api/products?search=Lamp&category=Furniture',
    );
    expect(productsUrl(plain, { limit: 24, offset: 48 })).toBe('/api/products?limit=24&offset=48');
  });

  it('asks for a maximum distance below 500 miles', () => {
    expect(productsUrl({ ...plain, maxDistance: 5 })).toBe('/api/products/with-distance?maxDistance=5');
    expect(productsUrl({ ...plain, maxDistance: 499, search: 'chair' }, { limit: 24, offset: 0 })).toBe(
      '/api/products/with-distance?maxDistance=499&search=chair&limit=24&offset=0',
    );
  });

  it('treats 500 as any distance: the distance list, without maxDistance', () => {
    expect(productsUrl({ ...plain, maxDistance: 500 })).toBe('/api/products/with-distance');
    expect(productsUrl({ ...plain, maxDistance: 500, category: 'Books' })).toBe(
      '/api/products/with-distance?category=Books',
    );
  });

  it('keeps the miles within the slider range, in whole miles', () => {
    expect(normaliseProductQuery({ ...plain, maxDistance: 0 }).maxDistance).toBe(1);
    expect(normaliseProductQuery({ ...plain, maxDistance: 900 }).maxDistance).toBe(500);
    expect(normaliseProductQuery({ ...plain, maxDistance: 12.6 }).maxDistance).toBe(13);
    expect(normaliseProductQuery({ ...plain, category: '' }).category).toBe('All');
  });
});

describe('paging', () => {
  const options = productsInfiniteQueryOptions(plain, 2);
  const next = (lastPage: ReturnType<typeof makeProduct>[], lastOffset: number) =>
    options.getNextPageParam(lastPage, [lastPage], lastOffset, [lastOffset]);

  it('asks for the next offset while pages come back full, and stops at a short page', () => {
    expect(next([makeProduct(), makeProduct()], 0)).toBe(2);
    expect(next([makeProduct(), makeProduct()], 2)).toBe(4);
    expect(next([makeProduct()], 4)).toBeUndefined();
    expect(next([], 4)).toBeUndefined();
  });

  it('has one key per list and filters', () => {
    expect(productsInfiniteQueryOptions(plain).queryKey[0]).toBe('/api/products');
    expect(productsInfiniteQueryOptions({ ...plain, maxDistance: 500 }).queryKey[0]).toBe(
      '/api/products/with-distance',
    );
    expect(productsInfiniteQueryOptions({ ...plain, search: ' a ' }).queryKey).toEqual(
      productsInfiniteQueryOptions({ ...plain, search: 'a' }).queryKey,
    );
  });

  it('shows a product that moved between two pages once', () => {
    const a = makeProduct();
    const b = makeProduct();
    const c = makeProduct();
    expect(
      uniqueProducts([
        [a, b],
        [b, c],
      ]).map((p) => p.id),
    ).toEqual([a.id, b.id, c.id]);
  });
});
