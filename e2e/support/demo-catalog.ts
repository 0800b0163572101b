import type { APIRequestContext } from '@playwright/test';
import { expect } from './fixtures';

/**
 * The demo sellers, by the name the catalog shows for them: the sellers with products and
 * pictures of the demo marketplace (docs/rules/running.md, Running modes and adapters).
 */
const DEMO_SELLER_NAMES: ReadonlySet<string> = new Set([
  'Sam Seller',
  'Morgan Maker',
  'Priya Patel',
  'Luis Ortega',
  'Grace Kim',
  'Tom Novak',
  'Avery Admin',
]);

/**
 * The demo sellers' available products, newest first: at least `enough` of them while the catalog
 * has that many. The specs running alongside list products of fresh sellers, newer than every demo
 * product and without a picture, and sell them out, hide them or suspend their seller while other
 * tests read the catalog: a test that needs a product to stay as it is takes one of these.
 */
export async function demoProducts<T extends { id: string; sellerName: string; available: boolean }>(
  request: APIRequestContext,
  enough = 40,
): Promise<T[]> {
  // By id: a product listed meanwhile moves the next page's rows by one.
  const found = new Map<string, T>();
  for (let offset = 0; found.size < enough; offset += 100) {
    const response = await request.get(`/api/products?limit=100&offset=${offset}`);
    expect(response.status()).toBe(200);
    const rows = (await response.json()) as T[];
    for (const row of rows)
      if (row.available && DEMO_SELLER_NAMES.has(row.sellerName)) found.set(row.id, row);
    if (rows.length < 100) break;
  }
  return [...found.values()];
}
