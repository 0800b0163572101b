import { useEffect } from 'react';
import { useQueries } from '@tanstack/react-query';
import { apiGet, statusOf } from '../../../lib/api-client';
import type { ProductStockNews } from '../cart-store';
import { useCart } from '../use-cart';

/**
 * GET /api/products/{id} for one cart line: its stock and availability now. A product that is gone
 * (404) counts as no longer available.
 */
async function fetchStock(id: string, signal?: AbortSignal): Promise<ProductStockNews> {
  try {
    // The schema loads with the first request, beside it: the cart panel is on every page, and
    // building the catalog's schemas (with classic zod) is no part of showing one
    // (docs/decisions/0014-first-load.md).
    const [{ productDetailSchema }, body] = await Promise.all([
      import('@domain/catalog'),
      apiGet(`/api/products/${encodeURIComponent(id)}`, signal),
    ]);
    const product = productDetailSchema.parse(body);
    return { id, stock: product.stock, available: product.available };
  } catch (error) {
    if (statusOf(error) === 404) return { id, stock: 0, available: false };
    throw error;
  }
}

/**
 * The cart, when it is opened (the sheet, the cart page), asks the catalog again for the stock and
 * availability of each line (docs/rules/screens-buyer.md, Cart and checkout screens), so its quantity
 * controls stop at the current stock. A line whose answer fails keeps what it knew.
 */
export function useRefreshCartStock(isOpen: boolean): void {
  const { items, refreshStock } = useCart();
  const ids = [...new Set(items.map((item) => item.id))].sort();
  const results = useQueries({
    queries: isOpen
      ? ids.map((id) => ({
          queryKey: ['/api/products', id, 'stock'] as const,
          queryFn: ({ signal }: { signal: AbortSignal }) => fetchStock(id, signal),
          // Stock moves: every opening asks again.
          staleTime: 0,
          refetchOnMount: 'always' as const,
          retry: false,
        }))
      : [],
  });
  const news = results.flatMap((result) => (result.data ? [result.data] : []));
  const signature = news.map((item) => `${item.id}:${item.stock}:${item.available}`).join('|');

  useEffect(() => {
    if (news.length > 0) refreshStock(news);
    // The signature names the answers; `news` is a new array every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [signature, refreshStock]);
}
