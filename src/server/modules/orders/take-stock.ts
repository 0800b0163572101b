import type { Db } from '../../db/client';
import { takeStock } from './orders.queries';

/**
 * Takes the stock of a paid checkout inside the caller's transaction
 * (docs/product-rules.md, Checkout and orders). Answers the name of the first product that is short
 * (the caller then rolls back), or null when all was taken. Rows are taken in a fixed order, so two
 * checkouts sharing products never wait on each other in a circle.
 */
export async function takeStockFor(
  tx: Db,
  items: readonly { productId: string; name: string; quantity: number }[],
): Promise<string | null> {
  const sorted = [...items].sort((a, b) =>
    a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0,
  );
  for (const item of sorted) if (!(await takeStock(tx, item.productId, item.quantity))) return item.name;
  return null;
}
