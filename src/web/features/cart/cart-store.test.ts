// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  addItem,
  canAddOne,
  cartCount,
  cartTotal,
  CART_STORAGE_KEY,
  createCartStore,
  lineTotal,
  maxQuantityOf,
  parseStoredCart,
  refreshStock,
  removeItem,
  stockNoteOf,
  updatePrice,
  updateQuantity,
  type CartItem,
  type CartProduct,
} from './cart-store';

const lamp: CartProduct = { id: 'p1', name: 'Desk Lamp', price: '12.50', sellerId: 's1' };
const chair: CartProduct = { id: 'p2', name: 'Chair', price: 40, sellerId: 's2', offerPickup: true };

describe('cart rules (docs/rules/screens-buyer.md, Cart and checkout screens)', () => {
  it('starts a new item at quantity 1', () => {
    expect(addItem([], lamp)).toEqual([{ ...lamp, quantity: 1 }]);
  });

  it('raises the quantity by 1 when the item is already present', () => {
    const once = addItem([], lamp);
    const twice = addItem(once, lamp);
    expect(twice).toHaveLength(1);
    expect(twice[0]?.quantity).toBe(2);
  });

  it('keeps the other items when adding', () => {
    const items = addItem(addItem([], lamp), chair);
    expect(items.map((i) => i.id)).toEqual(['p1', 'p2']);
  });

  it('sets a quantity', () => {
    const items = updateQuantity(addItem([], lamp), 'p1', 5);
    expect(items[0]?.quantity).toBe(5);
  });

  it.each([0, -1])('removes the item when the quantity is set to %i', (quantity) => {
    const items = updateQuantity(addItem(addItem([], lamp), chair), 'p1', quantity);
    expect(items.map((i) => i.id)).toEqual(['p2']);
  });

  it('removes an item', () => {
    expect(removeItem(addItem([], lamp), 'p1')).toEqual([]);
  });

  it('totals price times quantity with numeric-string and number prices', () => {
    const items: CartItem[] = [
      { ...lamp, quantity: 2 },
      { ...chair, quantity: 1 },
    ];
    expect(cartTotal(items)).toBe(65);
    expect(lineTotal({ ...lamp, quantity: 3 })).toBe(37.5);
  });

  it('adds money without floating point drift', () => {
    const items: CartItem[] = [
      { ...lamp, price: '0.10', quantity: 1 },
      { ...chair, price: 0.2, quantity: 1 },
    ];
    expect(cartTotal(items)).toBe(0.3);
  });

  it('counts a malformed price as 0', () => {
    expect(cartTotal([{ ...lamp, price: 'abc', quantity: 2 }])).toBe(0);
  });

  it('counts the sum of quantities', () => {
    expect(
      cartCount([
        { ...lamp, quantity: 2 },
        { ...chair, quantity: 3 },
      ]),
    ).toBe(5);
    expect(cartCount([])).toBe(0);
  });

  it('keeps only valid stored items', () => {
    expect(parseStoredCart(null)).toEqual([]);
    expect(parseStoredCart('not json')).toEqual([]);
    expect(parseStoredCart('{"id":"x"}')).toEqual([]);
    const raw = JSON.stringify([{ ...lamp, quantity: 1 }, { id: 'broken' }]);
    expect(parseStoredCart(raw)).toEqual([{ ...lamp, quantity: 1 }]);
  });
});

describe('stock in the cart (docs/rules/screens-buyer.md, Cart and checkout screens)', () => {
  const bike: CartProduct = {
    id: 'b1',
    name: 'Cobalt Bike',
    price: '1250.00',
    sellerId: 's1',
    stock: 2,
    available: true,
  };

  it('adds up to the stock the catalog reported, and no further', () => {
    const once = addItem([], bike);
    const twice = addItem(once, bike);
    expect(canAddOne(twice, bike)).toBe(false);
    expect(addItem(twice, bike)).toEqual(twice);
    expect(twice[0]?.quantity).toBe(2);
  });

  it('never raises a quantity above the stock, but lowers it freely', () => {
    const two = [{ ...bike, quantity: 2 }];
    expect(updateQuantity(two, 'b1', 5)[0]?.quantity).toBe(2);
    // A cart from before the stock fell keeps its 5 until the buyer lowers it, one at a time or at once.
    const five = [{ ...bike, quantity: 5 }];
    expect(updateQuantity(five, 'b1', 6)[0]?.quantity).toBe(5);
    expect(updateQuantity(five, 'b1', 4)[0]?.quantity).toBe(4);
    expect(updateQuantity(five, 'b1', 1)[0]?.quantity).toBe(1);
  });

  it('knows no limit for a line without a reported stock, and none for an unavailable product', () => {
    expect(maxQuantityOf({})).toBe(Number.POSITIVE_INFINITY);
    expect(maxQuantityOf({ stock: 3, available: false })).toBe(0);
    expect(canAddOne([], { ...bike, available: false })).toBe(false);
    expect(canAddOne([], { ...bike, stock: 0 })).toBe(false);
  });

  it('says "Only N in stock" once + has stopped, and what cannot be bought', () => {
    expect(stockNoteOf({ ...bike, quantity: 1 })).toBeNull();
    expect(stockNoteOf({ ...bike, quantity: 2 })).toEqual({ text: 'Only 2 in stock', isProblem: false });
    expect(stockNoteOf({ ...bike, quantity: 5 })).toEqual({ text: 'Only 2 in stock', isProblem: true });
    expect(stockNoteOf({ ...bike, stock: 0, quantity: 1 })).toEqual({
      text: 'Out of Stock',
      isProblem: true,
    });
    expect(stockNoteOf({ ...bike, available: false, quantity: 1 })).toEqual({
      text: 'No longer available',
      isProblem: true,
    });
  });

  it('takes the current stock and availability when refreshed, keeping the price and quantity', () => {
    const items: CartItem[] = [
      { ...bike, quantity: 2 },
      { ...lamp, quantity: 1 },
    ];
    const refreshed = refreshStock(items, [{ id: 'b1', stock: 1, available: true }]);
    expect(refreshed[0]).toEqual({ ...bike, stock: 1, quantity: 2 });
    expect(refreshed[1]).toBe(items[1]);
    expect(refreshStock(items, [{ id: 'b1', stock: 2, available: true }])[0]).toBe(items[0]);
  });
});

describe('cart store (local storage)', () => {
  beforeEach(() => window.localStorage.clear());
  afterEach(() => window.localStorage.clear());

  it('persists under the key "cart"', () => {
    const store = createCartStore();
    store.add(lamp);
    store.add(lamp);
    expect(JSON.parse(window.localStorage.getItem(CART_STORAGE_KEY) ?? 'null')).toEqual([
      { ...lamp, quantity: 2 },
    ]);
  });

  it('returns the same snapshot while nothing changed', () => {
    const store = createCartStore();
    store.add(lamp);
    expect(store.getSnapshot()).toBe(store.getSnapshot());
  });

  it('sets quantities, removes and clears', () => {
    const store = createCartStore();
    store.add(lamp);
    store.add(chair);
    store.setQuantity('p2', 4);
    expect(store.getSnapshot().find((i) => i.id === 'p2')?.quantity).toBe(4);
    store.setQuantity('p2', 0);
    expect(store.getSnapshot().map((i) => i.id)).toEqual(['p1']);
    store.remove('p1');
    expect(store.getSnapshot()).toEqual([]);
    store.add(lamp);
    store.clear();
    expect(store.getSnapshot()).toEqual([]);
    expect(window.localStorage.getItem(CART_STORAGE_KEY)).toBeNull();
  });

  it('tells every subscriber about a change', () => {
    const store = createCartStore();
    const a = vi.fn();
    const b = vi.fn();
    store.subscribe(a);
    const unsubscribe = store.subscribe(b);
    store.add(lamp);
    unsubscribe();
    store.add(lamp);
    expect(a).toHaveBeenCalledTimes(2);
    expect(b).toHaveBeenCalledTimes(1);
  });

  it('shares one cart between two stores (components) on the same storage', () => {
    const first = createCartStore();
    const second = createCartStore();
    first.add(lamp);
    second.add(lamp);
    expect(first.getSnapshot()[0]?.quantity).toBe(2);
  });

  it('follows a change made in another tab', () => {
    const store = createCartStore();
    const listener = vi.fn();
    store.subscribe(listener);
    window.localStorage.setItem(CART_STORAGE_KEY, JSON.stringify([{ ...chair, quantity: 3 }]));
    window.dispatchEvent(new StorageEvent('storage', { key: CART_STORAGE_KEY }));
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.getSnapshot()).toEqual([{ ...chair, quantity: 3 }]);
  });

  it('ignores storage events for other keys', () => {
    const store = createCartStore();
    const listener = vi.fn();
    store.subscribe(listener);
    window.dispatchEvent(new StorageEvent('storage', { key: 'theme' }));
    expect(listener).not.toHaveBeenCalled();
  });
});

describe('accepting a new price at checkout', () => {
  it('changes the price of one item only', () => {
    const items = updatePrice(addItem(addItem([], lamp), chair), 'p1', '13.00');
    expect(items.map((item) => item.price)).toEqual(['13.00', 40]);
  });
});
