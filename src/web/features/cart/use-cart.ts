import { useMemo, useSyncExternalStore } from 'react';
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
  const stored = useSyncExternalStore(store.subscribe, store.getSnapshot, emptyServerSnapshot);
  // The server cannot read local storage: a page it rendered shows the cart once hydrated, in a
  // transition rendered in small slices (docs/decisions/0014-first-load.md, The first screen in the HTML).
  const items = useHasHydrated() ? stored : NO_ITEMS;
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
