import type { Address } from '@domain/addresses';
import type { CheckoutBody, CheckoutQuote } from '@domain/checkout';
import {
  MISSING_INFORMATION_TITLE,
  SELECT_DELIVERY_ADDRESS,
  SELECT_PICKUP_TIME,
  SELECTED_ADDRESS_NOT_FOUND,
} from '@domain/checkout-messages';
import type { CartItem } from '../cart/cart-store';

/**
 * The checkout's rules in the browser (docs/product-rules.md, Cart and checkout screens). The
 * server prices and checks everything again (docs/product-rules.md, Checkout and orders); these
 * decide what the page offers and when the button Proceed to Payment is enabled.
 */

export type DeliveryMethod = 'delivery' | 'pickup';

/**
 * Pickup is selectable only when every cart item has offerPickup
 * (docs/product-rules.md, Checkout and orders).
 */
export function isPickupAvailable(items: readonly Pick<CartItem, 'offerPickup'>[]): boolean {
  return items.length > 0 && items.every((item) => item.offerPickup === true);
}

/**
 * The method in force: the buyer's choice, except that pickup falls back to delivery as soon as it
 * is no longer offered (an item without pickup was added, or the server says an item stopped
 * offering it).
 */
export function effectiveDeliveryMethod(chosen: DeliveryMethod, pickupAvailable: boolean): DeliveryMethod {
  return chosen === 'pickup' && pickupAvailable ? 'pickup' : 'delivery';
}

/**
 * The primary address is preselected, the first one when none is marked primary
 * (docs/product-rules.md, Checkout and orders).
 */
export function defaultAddressId(addresses: readonly Pick<Address, 'id' | 'isPrimary'>[]): string | null {
  return (addresses.find((address) => address.isPrimary) ?? addresses[0])?.id ?? null;
}

/** The sellers of a cart, in the order they first appear, with the name the cart knows. */
export function sellersOf(items: readonly Pick<CartItem, 'sellerId' | 'sellerName'>[]): {
  sellerId: string;
  sellerName: string | null;
}[] {
  const seen = new Map<string, string | null>();
  for (const item of items) if (!seen.has(item.sellerId)) seen.set(item.sellerId, item.sellerName ?? null);
  return [...seen].map(([sellerId, sellerName]) => ({ sellerId, sellerName }));
}

export interface CheckoutBlocker {
  title: string;
  message: string;
}

export const ADDRESS_NOT_FOUND_TITLE = 'Address not found';

export interface CheckoutChoices {
  method: DeliveryMethod;
  addressId: string | null;
  /** The buyer's addresses; undefined while they load. */
  addresses: readonly Pick<Address, 'id'>[] | undefined;
  /** Every seller of the cart. */
  sellerIds: readonly string[];
  /** Seller id → chosen slot datetime. */
  pickupTimes: Readonly<Record<string, string>>;
}

/**
 * What stops Proceed to Payment, or null when the buyer's choices are complete
 * (docs/product-rules.md, Checkout and orders).
 * Delivery needs an address that exists; pickup needs a time for every seller.
 */
export function checkoutBlocker(choices: CheckoutChoices): CheckoutBlocker | null {
  if (choices.method === 'delivery') {
    if (!choices.addressId) return { title: MISSING_INFORMATION_TITLE, message: SELECT_DELIVERY_ADDRESS };
    if (choices.addresses && !choices.addresses.some((address) => address.id === choices.addressId))
      return { title: ADDRESS_NOT_FOUND_TITLE, message: SELECTED_ADDRESS_NOT_FOUND };
    return null;
  }
  if (choices.sellerIds.some((sellerId) => !choices.pickupTimes[sellerId]))
    return { title: MISSING_INFORMATION_TITLE, message: SELECT_PICKUP_TIME };
  return null;
}

/**
 * The quote's problems that the buyer must fix in the cart (price changed, unavailable, out of
 * stock). Missing choices are reported by `checkoutBlocker` instead, with the spec's texts.
 */
export function itemProblemsOf(quote: CheckoutQuote | undefined): CheckoutQuote['problems'] {
  if (!quote) return [];
  return quote.problems.filter((problem) => problem.field === 'items' || problem.field === 'isPickup');
}

// ---- Session storage (docs/product-rules.md, Cart and checkout screens) ----

/** The spec's session-storage keys, exactly. */
export const CHECKOUT_SESSION_KEYS = {
  isPickup: 'isPickup',
  deliveryAddress: 'deliveryAddress',
  deliveryAddressId: 'deliveryAddressId',
  deliveryNotes: 'deliveryNotes',
  /** JSON of seller id → slot datetime (one order per seller, each with its own time). */
  scheduledPickupTime: 'scheduledPickupTime',
} as const;

export interface CheckoutSession {
  isPickup: boolean;
  /** The delivery address as one line of text; '' for pickup. */
  deliveryAddress: string;
  /** '' for pickup. */
  deliveryAddressId: string;
  deliveryNotes: string;
  /** Seller id → slot datetime; empty for delivery. */
  scheduledPickupTime: Record<string, string>;
}

function sessionStorageOrUndefined(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

export function saveCheckoutSession(
  session: CheckoutSession,
  storage: Storage | undefined = sessionStorageOrUndefined(),
): void {
  if (!storage) return;
  storage.setItem(CHECKOUT_SESSION_KEYS.isPickup, String(session.isPickup));
  storage.setItem(CHECKOUT_SESSION_KEYS.deliveryAddress, session.deliveryAddress);
  storage.setItem(CHECKOUT_SESSION_KEYS.deliveryAddressId, session.deliveryAddressId);
  storage.setItem(CHECKOUT_SESSION_KEYS.deliveryNotes, session.deliveryNotes);
  storage.setItem(CHECKOUT_SESSION_KEYS.scheduledPickupTime, JSON.stringify(session.scheduledPickupTime));
}

function parsePickupTimes(raw: string | null): Record<string, string> {
  if (!raw) return {};
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    return Object.fromEntries(
      Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  } catch {
    return {};
  }
}

/** What the checkout kept, or null when the buyer has not been through it in this tab. */
export function readCheckoutSession(
  storage: Storage | undefined = sessionStorageOrUndefined(),
): CheckoutSession | null {
  const isPickup = storage?.getItem(CHECKOUT_SESSION_KEYS.isPickup);
  if (!storage || (isPickup !== 'true' && isPickup !== 'false')) return null;
  return {
    isPickup: isPickup === 'true',
    deliveryAddress: storage.getItem(CHECKOUT_SESSION_KEYS.deliveryAddress) ?? '',
    deliveryAddressId: storage.getItem(CHECKOUT_SESSION_KEYS.deliveryAddressId) ?? '',
    deliveryNotes: storage.getItem(CHECKOUT_SESSION_KEYS.deliveryNotes) ?? '',
    scheduledPickupTime: parsePickupTimes(storage.getItem(CHECKOUT_SESSION_KEYS.scheduledPickupTime)),
  };
}

export function clearCheckoutSession(storage: Storage | undefined = sessionStorageOrUndefined()): void {
  if (!storage) return;
  for (const key of Object.values(CHECKOUT_SESSION_KEYS)) storage.removeItem(key);
}

// ---- The body of POST /api/checkout/quote and POST /api/payments ----

/** A cart line as the server wants it: the product, how many, and the price the cart showed. */
function toLine(item: Pick<CartItem, 'id' | 'quantity' | 'price'>): CheckoutBody['items'][number] {
  const price = typeof item.price === 'number' ? item.price : Number.parseFloat(item.price);
  return {
    productId: item.id,
    quantity: item.quantity,
    ...(Number.isFinite(price) && price >= 0 ? { expectedPrice: price.toFixed(2) } : {}),
  };
}

export interface CheckoutBodyInput {
  isPickup: boolean;
  deliveryAddressId: string | null;
  deliveryNotes: string;
  pickupTimes: Readonly<Record<string, string>>;
}

/**
 * The checkout body (domain/checkout.ts). Only ids, quantities and the shown price go to the
 * server: it prices everything itself (docs/product-rules.md, Checkout and orders).
 */
export function toCheckoutBody(
  items: readonly Pick<CartItem, 'id' | 'quantity' | 'price' | 'sellerId'>[],
  input: CheckoutBodyInput,
): CheckoutBody {
  const sellerIds = new Set(items.map((item) => item.sellerId));
  const notes = input.deliveryNotes.trim();
  return {
    items: items.map(toLine),
    isPickup: input.isPickup,
    deliveryAddressId: input.isPickup ? null : input.deliveryAddressId,
    // Notes belong to the delivery (Delivery Information); a pickup sends none.
    deliveryNotes: !input.isPickup && notes ? notes : null,
    ...(input.isPickup
      ? {
          // A seller whose time was cleared (another day picked) sends none yet.
          scheduledPickupTimes: Object.fromEntries(
            Object.entries(input.pickupTimes).filter(([sellerId, time]) => sellerIds.has(sellerId) && time),
          ),
        }
      : {}),
  };
}

/** The payment body from what the checkout kept in session storage. */
export function checkoutBodyFromSession(
  items: readonly Pick<CartItem, 'id' | 'quantity' | 'price' | 'sellerId'>[],
  session: CheckoutSession,
): CheckoutBody {
  return toCheckoutBody(items, {
    isPickup: session.isPickup,
    deliveryAddressId: session.deliveryAddressId || null,
    deliveryNotes: session.deliveryNotes,
    pickupTimes: session.scheduledPickupTime,
  });
}

/**
 * Slots grouped by their day, from labels like "Mon, Nov 23 · 9:00 AM"
 * (docs/product-rules.md, Addresses, availability and slots), in order.
 */
export function groupSlotsByDay<T extends { label: string }>(
  slots: readonly T[],
): { day: string; slots: T[] }[] {
  const groups: { day: string; slots: T[] }[] = [];
  for (const slot of slots) {
    const day = dayOfSlotLabel(slot.label);
    const last = groups[groups.length - 1];
    if (last && last.day === day) last.slots.push(slot);
    else groups.push({ day, slots: [slot] });
  }
  return groups;
}

const SLOT_SEPARATOR = ' · ';

/** "Mon, Nov 23 · 9:00 AM" → "Mon, Nov 23": the day a slot is on, as the server labelled it. */
export function dayOfSlotLabel(label: string): string {
  const separator = label.indexOf(SLOT_SEPARATOR);
  return separator > 0 ? label.slice(0, separator) : '';
}

/** "Mon, Nov 23 · 9:00 AM" → "9:00 AM": the time of day a slot starts. */
export function timeOfSlotLabel(label: string): string {
  const separator = label.indexOf(SLOT_SEPARATOR);
  return separator > 0 ? label.slice(separator + SLOT_SEPARATOR.length) : label;
}
