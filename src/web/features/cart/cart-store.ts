import { z } from 'zod';

/** Spec buyer §4 and §9: the cart lives in the browser's local storage under 'cart'. */
export const CART_STORAGE_KEY = 'cart';

/** Spec buyer §3: "product fields plus quantity and sellerId; price may be a number or numeric string". */
export const cartItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  price: z.union([z.number(), z.string()]),
  sellerId: z.string(),
  quantity: z.number().int().positive(),
  category: z.string().nullish(),
  description: z.string().nullish(),
  imageUrl: z.string().nullish(),
  available: z.boolean().optional(),
  stock: z.number().optional(),
  requiresTrailer: z.boolean().optional(),
  sellerDelivery: z.boolean().optional(),
  sellerDeliveryFee: z.union([z.number(), z.string()]).nullish(),
  offerPickup: z.boolean().optional(),
  sellerName: z.string().nullish(),
});
export type CartItem = z.infer<typeof cartItemSchema>;

/** What can be put in the cart: a product as the catalog returns it. */
export type CartProduct = Omit<CartItem, 'quantity'>;

// ---- The rules (pure) ----

/** Adding an item already present raises its quantity by 1; a new item starts at 1. */
export function addItem(items: readonly CartItem[], product: CartProduct): CartItem[] {
  const existing = items.find((item) => item.id === product.id);
  if (existing) {
    return items.map((item) => (item.id === product.id ? { ...item, quantity: item.quantity + 1 } : item));
  }
  return [...items, { ...product, quantity: 1 }];
}

/** Setting a quantity of 0 or less removes the item. */
export function updateQuantity(items: readonly CartItem[], id: string, quantity: number): CartItem[] {
  if (quantity <= 0) return removeItem(items, id);
  const whole = Math.floor(quantity);
  return items.map((item) => (item.id === id ? { ...item, quantity: whole } : item));
}

/** The checkout found a new price (DECISIONS §5): the buyer accepted it, the cart shows it from now on. */
export function updatePrice(items: readonly CartItem[], id: string, price: string): CartItem[] {
  return items.map((item) => (item.id === id ? { ...item, price } : item));
}

export function removeItem(items: readonly CartItem[], id: string): CartItem[] {
  return items.filter((item) => item.id !== id);
}

/** A price as whole cents; a malformed price counts as 0 rather than poisoning the total. */
export function priceInCents(price: number | string): number {
  const amount = typeof price === 'number' ? price : Number.parseFloat(price);
  return Number.isFinite(amount) ? Math.round(amount * 100) : 0;
}

/** Sum of price times quantity, computed in cents so 0.1 + 0.2 stays 0.30. */
export function cartTotal(items: readonly CartItem[]): number {
  const cents = items.reduce((sum, item) => sum + priceInCents(item.price) * item.quantity, 0);
  return cents / 100;
}

export function lineTotal(item: CartItem): number {
  return (priceInCents(item.price) * item.quantity) / 100;
}

/** The item count is the sum of quantities. */
export function cartCount(items: readonly CartItem[]): number {
  return items.reduce((sum, item) => sum + item.quantity, 0);
}

/** Reads stored items, keeping the valid ones: a hand-edited or older cart never breaks the page. */
export function parseStoredCart(raw: string | null): CartItem[] {
  if (!raw) return [];
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(data)) return [];
  return data.flatMap((entry: unknown) => {
    const parsed = cartItemSchema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

// ---- The store (local storage, shared by every component and tab) ----

const EMPTY: readonly CartItem[] = Object.freeze([]);

export interface CartStore {
  subscribe: (listener: () => void) => () => void;
  getSnapshot: () => readonly CartItem[];
  add: (product: CartProduct) => void;
  setQuantity: (id: string, quantity: number) => void;
  setPrice: (id: string, price: string) => void;
  remove: (id: string) => void;
  clear: () => void;
}

function browserStorage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

/**
 * A store for useSyncExternalStore. Snapshots are cached by the stored text, so the same cart
 * is the same array (no extra renders); the 'storage' event keeps other tabs in step.
 */
export function createCartStore(
  getStorage: () => Storage | undefined = browserStorage,
  key: string = CART_STORAGE_KEY,
): CartStore {
  const listeners = new Set<() => void>();
  let cachedRaw: string | null = null;
  let cachedItems: readonly CartItem[] = EMPTY;

  function read(): string | null {
    try {
      return getStorage()?.getItem(key) ?? null;
    } catch {
      return null;
    }
  }

  function getSnapshot(): readonly CartItem[] {
    const raw = read();
    if (raw !== cachedRaw) {
      cachedRaw = raw;
      const items = parseStoredCart(raw);
      cachedItems = items.length ? items : EMPTY;
    }
    return cachedItems;
  }

  function notify(): void {
    listeners.forEach((listener) => listener());
  }

  function write(items: readonly CartItem[]): void {
    try {
      const storage = getStorage();
      if (items.length) storage?.setItem(key, JSON.stringify(items));
      else storage?.removeItem(key);
    } catch {
      // Quota or privacy mode: the cart cannot be kept; the page goes on.
    }
    notify();
  }

  function onStorage(event: StorageEvent): void {
    if (event.key === key || event.key === null) notify();
  }

  return {
    subscribe(listener) {
      listeners.add(listener);
      if (listeners.size === 1 && typeof window !== 'undefined')
        window.addEventListener('storage', onStorage);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && typeof window !== 'undefined')
          window.removeEventListener('storage', onStorage);
      };
    },
    getSnapshot,
    add: (product) => write(addItem(getSnapshot(), product)),
    setQuantity: (id, quantity) => write(updateQuantity(getSnapshot(), id, quantity)),
    setPrice: (id, price) => write(updatePrice(getSnapshot(), id, price)),
    remove: (id) => write(removeItem(getSnapshot(), id)),
    clear: () => write(EMPTY),
  };
}

/** The app's one cart. */
export const cartStore = createCartStore();
