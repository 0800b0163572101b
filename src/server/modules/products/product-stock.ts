import type { Db } from '../../db/client';
import { restoreStock, takeStockOfLines } from './products.queries';

type StockLine = { productId: string; name: string; quantity: number };

/**
 * The lines of a checkout as its stock is taken: one a product (an UPDATE … FROM changes a row once,
 * however many lines name it), in the order of their ids.
 */
export function stockLinesOf(items: readonly StockLine[]): StockLine[] {
  const lines = new Map<string, StockLine>();
  for (const item of items) {
    const line = lines.get(item.productId);
    if (line) line.quantity += item.quantity;
    else lines.set(item.productId, { ...item });
  }
  return [...lines.values()].sort((a, b) =>
    a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0,
  );
}

/**
 * The name of the first product, in the order of their ids, of the checkout's `items` whose stock
 * is not among `taken` (the ids a statement took), or null when all was taken.
 */
export function firstShortOf(items: readonly StockLine[], taken: ReadonlySet<string>): string | null {
  return stockLinesOf(items).find((line) => !taken.has(line.productId))?.name ?? null;
}

/**
 * Takes the stock of a paid checkout inside the caller's transaction, all lines in one statement
 * (docs/rules/catalog-and-orders.md, Checkout and orders). Answers the name of the first product, in the
 * order of their ids, that is short (the caller then rolls back), or null when all was taken.
 */
export async function takeStockFor(tx: Db, items: readonly StockLine[]): Promise<string | null> {
  const taken = await takeStockOfLines(tx, stockLinesOf(items));
  return firstShortOf(items, taken);
}

/**
 * Puts a cancelled order's units back on sale, inside the caller's transaction: in the order of the
 * products' ids, the order a checkout locks them in, so the two never wait for each other in a circle.
 */
export async function restoreStockFor(
  tx: Db,
  items: readonly { productId: string; quantity: number }[],
): Promise<void> {
  const inIdOrder = [...items].sort((a, b) =>
    a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0,
  );
  for (const item of inIdOrder) await restoreStock(tx, item.productId, item.quantity);
}
