import type { Db } from '../../db/client';
import { canBuyProduct } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import { ownProductMessage, type CheckoutBody, type CheckoutProblem } from '../../../domain/checkout';
import { formatUsd, parseCents } from '../../../domain/money';
import { findProductsForCheckout, type CheckoutProductRow } from './checkout.queries';

/** One product of the cart, read fresh from the database. */
export interface Line {
  productId: string;
  quantity: number;
  expectedPrice: string | null;
  row: CheckoutProductRow;
  sellerId: string;
}

/** What a step found wrong, in the order the buyer reads it. */
export type Problems = CheckoutProblem[];

export const problem = (
  code: CheckoutProblem['code'],
  message: string,
  field: string,
  ids: { productId?: string; sellerId?: string } = {},
): CheckoutProblem => ({
  code,
  message,
  field,
  productId: ids.productId ?? null,
  sellerId: ids.sellerId ?? null,
});

/** The same product twice in a cart is one line with the quantities added. */
function mergeLines(items: CheckoutBody['items']) {
  const merged = new Map<string, { quantity: number; expectedPrice: string | null }>();
  for (const item of items) {
    const line = merged.get(item.productId);
    if (line) line.quantity += item.quantity;
    else merged.set(item.productId, { quantity: item.quantity, expectedPrice: item.expectedPrice ?? null });
  }
  return merged;
}

function itemProblems(line: Line, actor: Actor): Problems {
  const { product } = line.row;
  const ids = { productId: product.id, sellerId: product.sellerId };
  if (!canBuyProduct(actor, product))
    return [problem('own_product', ownProductMessage(product.name), 'items', ids)];
  if (!product.onSale)
    return [problem('unavailable', `${product.name} is no longer available`, 'items', ids)];
  if (product.stock <= 0) return [problem('out_of_stock', `Out of stock: ${product.name}`, 'items', ids)];
  const found: Problems = [];
  if (product.stock < line.quantity)
    found.push(problem('insufficient_stock', `Only ${product.stock} left of ${product.name}`, 'items', ids));
  const price = parseCents(product.price);
  if (line.expectedPrice !== null && parseCents(line.expectedPrice) !== price)
    found.push(
      problem(
        'price_changed',
        `The price of ${product.name} changed from ${formatUsd(parseCents(line.expectedPrice))} to ${formatUsd(price)}`,
        'items',
        ids,
      ),
    );
  return found;
}

/**
 * Reads the cart's products (with their sellers' primary addresses, and the `delivery` address when
 * asked, and the open payments of `openPaymentsOf`: see `findProductsForCheckout`) and reports each one's problem: gone, the buyer's own
 * product, unavailable, out of stock, not enough stock, price changed.
 */
export async function readCartLines(
  db: Db,
  actor: Actor,
  items: CheckoutBody['items'],
  delivery?: { userId: string; addressId: string },
  openPaymentsOf?: string,
): Promise<{ lines: Line[]; problems: Problems }> {
  const problems: Problems = [];
  const wanted = mergeLines(items);
  const rows = await findProductsForCheckout(db, [...wanted.keys()], delivery, openPaymentsOf);
  const byId = new Map(rows.map((row) => [row.product.id, row]));
  const lines: Line[] = [];
  for (const [productId, { quantity, expectedPrice }] of wanted) {
    const row = byId.get(productId);
    if (!row) {
      problems.push(
        problem('product_not_found', 'A product in your cart no longer exists', 'items', { productId }),
      );
      continue;
    }
    const line = { productId, quantity, expectedPrice, row, sellerId: row.product.sellerId };
    lines.push(line);
    problems.push(...itemProblems(line, actor));
  }
  return { lines, problems };
}
