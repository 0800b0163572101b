import * as z from 'zod/mini';

/**
 * The cart lives in the browser's local storage under 'cart'
 * (docs/rules/catalog-and-orders.md, Checkout and orders).
 */
export const CART_STORAGE_KEY = 'cart';

/**
 * A cart line: product fields plus quantity and sellerId; price may be a number or numeric string
 * (docs/rules/screens-buyer.md, Cart and checkout screens).
 */
const buildCartItemSchema = () =>
  z.object({
    id: z.string(),
    name: z.string(),
    price: z.union([z.number(), z.string()]),
    sellerId: z.string(),
    quantity: z.int().check(z.positive()),
    category: z.nullish(z.string()),
    description: z.nullish(z.string()),
    imageUrl: z.nullish(z.string()),
    available: z.optional(z.boolean()),
    stock: z.optional(z.number()),
    requiresTrailer: z.optional(z.boolean()),
    sellerDelivery: z.optional(z.boolean()),
    sellerDeliveryFee: z.nullish(z.union([z.number(), z.string()])),
    offerPickup: z.optional(z.boolean()),
    sellerName: z.nullish(z.string()),
  });
/**
 * Built on the first read of a stored cart, not when the app's script runs: the page's first
 * load does not wait for it, and an empty cart never needs it (docs/decisions/0014-first-load.md).
 */
let cartItemSchema: ReturnType<typeof buildCartItemSchema> | undefined;
export type CartItem = z.infer<ReturnType<typeof buildCartItemSchema>>;

/** What can be put in the cart: a product as the catalog returns it. */
export type CartProduct = Omit<CartItem, 'quantity'>;

// ---- The rules (pure) ----

/**
 * The most of a product the cart takes: the stock the catalog last reported, none when it is not
 * available, no limit when the cart never learnt the stock (an older cart)
 * (docs/rules/screens-buyer.md, Cart and checkout screens).
 */
export function maxQuantityOf(item: Pick<CartItem, 'stock' | 'available'>): number {
  if (item.available === false) return 0;
  return typeof item.stock === 'number' ? Math.max(0, Math.floor(item.stock)) : Number.POSITIVE_INFINITY;
}

/** Whether one more unit of this product fits in the cart (its stock is not all there yet). */
export function canAddOne(items: readonly CartItem[], product: CartProduct): boolean {
  const inCart = items.find((item) => item.id === product.id)?.quantity ?? 0;
  return inCart < maxQuantityOf(product);
}

/**
 * Adding an item already present raises its quantity by 1; a new item starts at 1; never beyond the
 * stock the catalog reported (the cart stays as it is then).
 */
export function addItem(items: readonly CartItem[], product: CartProduct): CartItem[] {
  if (!canAddOne(items, product)) return [...items];
  const existing = items.find((item) => item.id === product.id);
  if (existing) {
    // The product as the catalog just showed it: its stock and availability are the newest known.
    const news = {
      ...(product.stock === undefined ? {} : { stock: product.stock }),
      ...(product.available === undefined ? {} : { available: product.available }),
    };
    return items.map((item) =>
      item.id === product.id ? { ...item, ...news, quantity: item.quantity + 1 } : item,
    );
  }
  return [...items, { ...product, quantity: 1 }];
}

/**
 * Setting a quantity of 0 or less removes the item; raising it stops at the stock the catalog last
 * reported.
 */
export function updateQuantity(items: readonly CartItem[], id: string, quantity: number): CartItem[] {
  if (quantity <= 0) return removeItem(items, id);
  const whole = Math.floor(quantity);
  return items.map((item) => {
    if (item.id !== id) return item;
    // Raising stops at the stock; lowering is always allowed, even while still above it.
    const next =
      whole > item.quantity ? Math.min(whole, Math.max(maxQuantityOf(item), item.quantity)) : whole;
    return { ...item, quantity: next };
  });
}

export interface StockNote {
  text: string;
  /** The line cannot be checked out as it is (more than the stock, or none left). */
  isProblem: boolean;
}

/**
 * What a cart line says about its stock (docs/rules/screens-buyer.md, Cart and checkout screens): "No
 * longer available", "Out of Stock", or "Only 2 in stock" once the quantity has reached the stock
 * (the + button stops there); nothing while more can be added.
 */
export function stockNoteOf(item: Pick<CartItem, 'stock' | 'available' | 'quantity'>): StockNote | null {
  if (item.available === false) return { text: 'No longer available', isProblem: true };
  const limit = maxQuantityOf(item);
  if (limit === 0) return { text: 'Out of Stock', isProblem: true };
  if (item.quantity >= limit) return { text: `Only ${limit} in stock`, isProblem: item.quantity > limit };
  return null;
}

/** What the catalog says of a product now: the cart refreshes these when it is opened. */
export interface ProductStockNews {
  id: string;
  stock: number;
  available: boolean;
}

/**
 * The cart opened again takes the catalog's current stock and availability
 * (docs/rules/screens-buyer.md, Cart and checkout screens). Prices stay as the buyer saw them: a change
 * is the checkout's to show ("price changed"). The quantities stay too; the lines say when they are
 * more than the stock.
 */
export function refreshStock(items: readonly CartItem[], news: readonly ProductStockNews[]): CartItem[] {
  const byId = new Map(news.map((product) => [product.id, product]));
  let changed = false;
  const next = items.map((item) => {
    const fresh = byId.get(item.id);
    if (!fresh || (fresh.stock === item.stock && fresh.available === item.available)) return item;
    changed = true;
    return { ...item, stock: fresh.stock, available: fresh.available };
  });
  return changed ? next : [...items];
}

/**
 * The checkout found a new price (docs/rules/catalog-and-orders.md, Checkout and orders): the buyer accepted
 * it, the cart shows it from now on.
 */
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
    const parsed = (cartItemSchema ??= buildCartItemSchema()).safeParse(entry);
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
  refreshStock: (news: readonly ProductStockNews[]) => void;
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
    refreshStock: (news) => {
      const current = getSnapshot();
      const next = refreshStock(current, news);
      if (next.some((item, index) => item !== current[index])) write(next);
    },
    remove: (id) => write(removeItem(getSnapshot(), id)),
    clear: () => write(EMPTY),
  };
}

/** The app's one cart. */
export const cartStore = createCartStore();
