import type { Address } from '@domain/addresses';
import type { CheckoutQuote } from '@domain/checkout';
import {
  MISSING_INFORMATION_TITLE,
  SELECT_DELIVERY_ADDRESS,
  SELECT_PICKUP_TIME,
  SELECTED_ADDRESS_NOT_FOUND,
} from '@domain/checkout-messages';
import type { CheckoutLine } from './checkout-session';

/**
 * The checkout's rules in the browser (docs/rules/screens-buyer.md, Cart and checkout screens). The
 * server prices and checks everything again (docs/rules/catalog-and-orders.md, Checkout and orders); these
 * decide what the page offers and when the button Proceed to Payment is enabled. Whether pickup is
 * offered at all is a rule of both sides: `isPickupAvailable` in `src/domain/pickup.ts`.
 */

export type DeliveryMethod = 'delivery' | 'pickup';

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
 * (docs/rules/catalog-and-orders.md, Checkout and orders).
 */
export function defaultAddressId(addresses: readonly Pick<Address, 'id' | 'isPrimary'>[]): string | null {
  return (addresses.find((address) => address.isPrimary) ?? addresses[0])?.id ?? null;
}

/** The sellers of a cart, in the order they first appear, with the name the cart knows. */
export function sellersOf(items: readonly Pick<CheckoutLine, 'sellerId' | 'sellerName'>[]): {
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
 * (docs/rules/catalog-and-orders.md, Checkout and orders).
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

/**
 * Slots grouped by their day, from labels like "Mon, Nov 23 · 9:00 AM"
 * (docs/rules/catalog-and-orders.md, Addresses, availability and slots), in order.
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
