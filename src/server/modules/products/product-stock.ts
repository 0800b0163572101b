import type { Db } from '../../db/client';
import { restoreStock, takeStockOfLines } from './products.queries';

/**
 * Takes the stock of a paid checkout inside the caller's transaction, all lines in one statement
 * (docs/rules/catalog-and-orders.md, Checkout and orders). Answers the name of the first product, in the
 * order of their ids, that is short (the caller then rolls back), or null when all was taken.
 */
export async function takeStockFor(
  tx: Db,
  items: readonly { productId: string; name: string; quantity: number }[],
): Promise<string | null> {
  // One line a product: an UPDATE … FROM changes a row once, however many lines name it.
  const lines = new Map<string, { productId: string; name: string; quantity: number }>();
  for (const item of items) {
    const line = lines.get(item.productId);
    if (line) line.quantity += item.quantity;
    else lines.set(item.productId, { ...item });
  }
  const sorted = [...lines.values()].sort((a, b) =>
    a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0,
  );
  const taken = await takeStockOfLines(tx, sorted);
  return sorted.find((line) => !taken.has(line.productId))?.name ?? null;
}

/** Puts a cancelled order's units back on sale, inside the caller's transaction. */
export async function restoreStockFor(
  tx: Db,
  items: readonly { productId: string; quantity: number }[],
): Promise<void> {
  for (const item of items) await restoreStock(tx, item.productId, item.quantity);
}
