import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { useHasHydrated } from '../../lib/use-has-hydrated';
import { cartCount, cartStore, cartTotal, type CartItem, type CartStore } from './cart-store';

export interface CartState {
  items: readonly CartItem[];
  total: number;
  count: number;
  add: CartStore['add'];
  setQuantity: CartStore['setQuantity'];
  setPrice: CartStore['setPrice'];
  refreshStock: CartStore['refreshStock'];
  remove: CartStore['remove'];
  clear: CartStore['clear'];
}

const NO_ITEMS: readonly CartItem[] = [];
const emptyServerSnapshot = (): readonly CartItem[] => NO_ITEMS;

/** The cart, kept in step across components and tabs. */
export function useCart(store: CartStore = cartStore): CartState {
  // The server cannot read local storage: a page it rendered shows the cart once hydrated, in a
  // transition rendered in small slices (docs/decisions/0014-first-load.md, The first screen in the HTML).
  // Until then the browser's snapshot is the server's too: were they to differ once hydration has
  // committed, React would render the component again at once, synchronously.
  const hasHydrated = useHasHydrated();
  const getSnapshot = useCallback(() => (hasHydrated ? store.getSnapshot() : NO_ITEMS), [hasHydrated, store]);
  const items = useSyncExternalStore(store.subscribe, getSnapshot, emptyServerSnapshot);
  return useMemo(
    () => ({
      items,
      total: cartTotal(items),
      count: cartCount(items),
      add: store.add,
      setQuantity: store.setQuantity,
      setPrice: store.setPrice,
      refreshStock: store.refreshStock,
      remove: store.remove,
      clear: store.clear,
    }),
    [items, store],
  );
}
