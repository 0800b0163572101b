import type { CheckoutBody } from '@domain/checkout';

/**
 * What the checkout hands to the payment page (docs/rules/screens-buyer.md, Cart and checkout screens):
 * the buyer's choices, kept in session storage under the spec's keys, and the body of the quote and
 * of the payment built from the cart's lines and those choices.
 */

/** A cart line as the checkout reads it: the cart's lines carry these fields and more. */
export interface CheckoutLine {
  id: string;
  quantity: number;
  /** A number or a numeric string, as the cart keeps it. */
  price: number | string;
  sellerId: string;
  sellerName?: string | null;
}

// ---- Session storage (docs/rules/screens-buyer.md, Cart and checkout screens) ----

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
function toLine(item: Pick<CheckoutLine, 'id' | 'quantity' | 'price'>): CheckoutBody['items'][number] {
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
 * server: it prices everything itself (docs/rules/catalog-and-orders.md, Checkout and orders).
 */
export function toCheckoutBody(
  items: readonly Pick<CheckoutLine, 'id' | 'quantity' | 'price' | 'sellerId'>[],
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
  items: readonly Pick<CheckoutLine, 'id' | 'quantity' | 'price' | 'sellerId'>[],
  session: CheckoutSession,
): CheckoutBody {
  return toCheckoutBody(items, {
    isPickup: session.isPickup,
    deliveryAddressId: session.deliveryAddressId || null,
    deliveryNotes: session.deliveryNotes,
    pickupTimes: session.scheduledPickupTime,
  });
}
