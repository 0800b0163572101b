import { z } from 'zod';
import { pickupAddressSchema } from './addresses';
import { moneyStringSchema } from './catalog';
import { orderSchema } from './orders';
import { idSchema } from './users';

/**
 * Checkout and payment calls (docs/rules/catalog-and-orders.md, Checkout and orders;
 * docs/rules/screens-buyer.md, Cart and checkout screens). The cart lives in the browser; the server re-reads
 * every product and prices the checkout from the database. Amounts a client sends are never used: the only
 * price a client may send is `expectedPrice`, the price it showed, so that a change can be reported before
 * payment.
 */

export { SELECT_DELIVERY_ADDRESS, SELECT_PICKUP_TIME, SELECTED_ADDRESS_NOT_FOUND } from './checkout-messages';
export const PICKUP_TIME_UNAVAILABLE =
  'The selected pickup time is no longer available. Please choose another time.';
export const EMPTY_CART = 'Your cart is empty';

/**
 * A seller cannot buy their own products (docs/rules/catalog-and-orders.md, Checkout and orders): the browser
 * disables Add for them, the quote lists this problem and POST /api/payments answers 409 with it.
 */
export function ownProductMessage(productName: string): string {
  return `You cannot buy your own product: ${productName}`;
}
/** The browser's words on a seller's own product page and card. */
export const OWN_PRODUCT_NOTE = 'This is your product: buyers see Add to Cart here.';

export const MAX_CHECKOUT_LINES = 100;
export const MAX_LINE_QUANTITY = 999;

/**
 * A price the client showed: "12.50", "12.5", "12" or the number 12.5
 * (docs/rules/screens-buyer.md, Cart and checkout screens: number or numeric string).
 */
const expectedPriceSchema = z
  .union([
    z
      .number()
      .nonnegative()
      .max(99_999_999.99)
      .transform((value) => value.toFixed(2)),
    z.string().regex(/^\d{1,8}(\.\d{1,2})?$/, 'Expected price must be an amount like 12.50'),
  ])
  .transform((value) => (value.includes('.') ? value.padEnd(value.indexOf('.') + 3, '0') : `${value}.00`));

export const checkoutLineBodySchema = z.strictObject({
  productId: idSchema,
  quantity: z
    .number({ error: 'Quantity must be a whole number' })
    .int('Quantity must be a whole number')
    .min(1, 'Quantity must be at least 1')
    .max(MAX_LINE_QUANTITY, `Quantity must be at most ${MAX_LINE_QUANTITY}`),
  /** The price the cart showed; a different current price is reported as a `price_changed` problem. */
  expectedPrice: expectedPriceSchema.optional(),
});

/**
 * POST /api/checkout/quote and POST /api/payments. Strict: a client can never send prices, fees,
 * totals, ids of orders or a status (docs/rules/accounts.md, Roles and permissions; mass
 * assignment). `scheduledPickupTimes` maps a seller id to the chosen slot's `datetime`
 * (GET /api/availability/slots/{sellerId}).
 */
export const checkoutBodySchema = z.strictObject({
  items: z
    .array(checkoutLineBodySchema, { error: 'Items must be a list of {productId, quantity}' })
    .min(1, EMPTY_CART)
    .max(MAX_CHECKOUT_LINES, `A checkout holds at most ${MAX_CHECKOUT_LINES} lines`),
  isPickup: z.boolean({ error: 'isPickup must be true or false' }).default(false),
  deliveryAddressId: idSchema.nullish(),
  deliveryNotes: z.string().trim().max(500, 'Delivery notes must be at most 500 characters').nullish(),
  scheduledPickupTimes: z
    .record(idSchema, z.iso.datetime({ offset: true, message: 'Pickup time must be an ISO date-time' }))
    .optional(),
});
export type CheckoutBody = z.infer<typeof checkoutBodySchema>;

/**
 * Why a checkout cannot be paid as it is. Item problems (`product_not_found` … `price_changed`) are
 * answered 409 by POST /api/payments; the others are missing or wrong choices, answered 400 with
 * the spec's message.
 */
export const CHECKOUT_PROBLEM_CODES = [
  'product_not_found',
  'own_product',
  'unavailable',
  'out_of_stock',
  'insufficient_stock',
  'price_changed',
  'pickup_not_offered',
  'missing_pickup_time',
  'pickup_time_unavailable',
  'missing_address',
  'address_not_found',
] as const;
export const checkoutProblemCodeSchema = z.enum(CHECKOUT_PROBLEM_CODES);
export type CheckoutProblemCode = z.infer<typeof checkoutProblemCodeSchema>;

export const ITEM_PROBLEM_CODES: readonly CheckoutProblemCode[] = [
  'product_not_found',
  'own_product',
  'unavailable',
  'out_of_stock',
  'insufficient_stock',
  'price_changed',
];

export const checkoutProblemSchema = z.object({
  code: checkoutProblemCodeSchema,
  /** A sentence for the buyer, e.g. "Out of stock: Oak Table" or "Please select a delivery address". */
  message: z.string(),
  productId: z.string().nullable(),
  sellerId: z.string().nullable(),
  /** The body field the problem is about: items, deliveryAddressId, scheduledPickupTimes.<sellerId>. */
  field: z.string(),
});
export type CheckoutProblem = z.infer<typeof checkoutProblemSchema>;

/** One cart line as priced by the server, at the product's current price. */
export const checkoutLineSchema = z.object({
  productId: z.string(),
  name: z.string(),
  imageUrl: z.string().nullable(),
  quantity: z.number().int(),
  /** Current price from the database. */
  price: moneyStringSchema,
  /** The price the client sent as expectedPrice, or null. */
  expectedPrice: moneyStringSchema.nullable(),
  lineTotal: moneyStringSchema,
  available: z.boolean(),
  stock: z.number().int(),
  requiresTrailer: z.boolean(),
  sellerDelivery: z.boolean(),
  offerPickup: z.boolean(),
});
export type CheckoutLine = z.infer<typeof checkoutLineSchema>;

/**
 * The order that one seller's items will become (docs/rules/catalog-and-orders.md, Checkout and orders: one
 * order per seller).
 */
export const checkoutOrderSchema = z.object({
  sellerId: z.string(),
  /** Display name (docs/rules/screens-shared.md, Client behaviour): "first last", else "Seller". */
  sellerName: z.string(),
  isPickup: z.boolean(),
  /** Every item of this seller has sellerDelivery: the seller delivers, at their highest fee. */
  sellerDelivery: z.boolean(),
  requiresTrailer: z.boolean(),
  /** Every item of this seller offers pickup. */
  offerPickup: z.boolean(),
  scheduledPickupTime: z.string().nullable(),
  /** The seller's primary address (where a pickup happens); null when they have none. */
  pickupAddress: pickupAddressSchema.nullable(),
  items: z.array(checkoutLineSchema),
  productSubtotal: moneyStringSchema,
  deliveryFee: moneyStringSchema,
  total: moneyStringSchema,
});
export type CheckoutOrder = z.infer<typeof checkoutOrderSchema>;

/** Answer of POST /api/checkout/quote; also part of POST /api/payments' answer. */
export const checkoutQuoteSchema = z.object({
  isPickup: z.boolean(),
  /** Pickup is offered only when every item offers it (docs/rules/catalog-and-orders.md, Checkout and orders). */
  pickupAvailable: z.boolean(),
  deliveryAddressId: z.string().nullable(),
  /** The chosen address as one line of text (null for pickup or when none is chosen). */
  deliveryAddress: z.string().nullable(),
  deliveryNotes: z.string().nullable(),
  orders: z.array(checkoutOrderSchema),
  /** Sums over all orders: what one payment charges. */
  productSubtotal: moneyStringSchema,
  deliveryFee: moneyStringSchema,
  total: moneyStringSchema,
  itemCount: z.number().int(),
  problems: z.array(checkoutProblemSchema),
  /** No problems: POST /api/payments with the same body will be accepted. */
  canPay: z.boolean(),
});
export type CheckoutQuote = z.infer<typeof checkoutQuoteSchema>;

/**
 * The active payment provider (docs/rules/running.md, Running modes and adapters): the built-in
 * test card form, or Stripe.
 */
export const PAYMENT_PROVIDERS = ['test', 'stripe'] as const;
export const paymentProviderSchema = z.enum(PAYMENT_PROVIDERS);
export type PaymentProviderName = z.infer<typeof paymentProviderSchema>;

export const PAYMENT_STATUSES = [
  'requires_payment',
  'succeeded',
  'failed',
  'refunded',
  'partially_refunded',
  'cancelled',
] as const;
export const paymentStatusSchema = z.enum(PAYMENT_STATUSES);
export type PaymentStatus = z.infer<typeof paymentStatusSchema>;

/** Answer of POST /api/payments: what the payment screen needs to take the card. */
export const paymentIntentSchema = z.object({
  paymentId: z.string(),
  provider: paymentProviderSchema,
  /** Stripe: the PaymentIntent's client secret for Stripe.js `confirmCardPayment`; null for the test provider. */
  clientSecret: z.string().nullable(),
  /** Stripe: the publishable key to load Stripe.js with; null for the test provider. */
  publishableKey: z.string().nullable(),
  amount: moneyStringSchema,
  currency: z.string(),
  quote: checkoutQuoteSchema,
});
export type PaymentIntent = z.infer<typeof paymentIntentSchema>;

/**
 * Test-mode card numbers (docs/rules/running.md, Running modes and adapters): the card provider's
 * own test numbers.
 */
export const TEST_CARD_SUCCEEDS = '4242 4242 4242 4242';
export const TEST_CARD_DECLINED = '4000 0000 0000 0002';
export const CARD_DECLINED_MESSAGE = 'Your card was declined.';

/**
 * POST /api/payments answers 409 with this when the same checkout is already paid or being paid
 * (a reload of the payment screen): the payment screen then points to My Orders instead of taking
 * the card again (docs/rules/money.md, Payments).
 */
export const CHECKOUT_ALREADY_PAID_MESSAGE =
  'This checkout has already been paid. Your orders appear in My Orders as soon as the payment completes.';

export const CARD_NUMBER_MESSAGE = 'Card number is invalid';
export const CARD_EXPIRY_MESSAGE = 'Expiry must be MM/YY';
export const CARD_EXPIRED_MESSAGE = 'Your card has expired.';
export const CARD_CVC_MESSAGE = 'CVC must be 3 or 4 digits';
export const CARD_NAME_MESSAGE = 'Name on card is required';

/** The Luhn check every real card number passes. */
export function passesLuhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits.charAt(digits.length - 1 - i));
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** "4242 4242 4242 4242" or "4242-4242-…" → "4242424242424242". */
export function normaliseCardNumber(input: string): string {
  return input.replace(/[\s-]/g, '');
}

/** What parseExpiry takes, as one regular expression (the month 1 to 12 included). */
export const CARD_EXPIRY_PATTERN = /^\s*(?:0?[1-9]|1[0-2])\s*\/\s*(?:\d{2}|\d{4})\s*$/;

/** "MM/YY" (or MM/YYYY) → the last month it is valid, or null when malformed. */
export function parseExpiry(input: string): { month: number; year: number } | null {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(input);
  if (!match) return null;
  const month = Number(match[1]);
  const yearText = match[2] ?? '';
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  if (month < 1 || month > 12) return null;
  return { month, year };
}

/** A card stays valid through the last day of its expiry month. */
export function isExpired(expiry: { month: number; year: number }, now: Date): boolean {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  return expiry.year < year || (expiry.year === year && expiry.month < month);
}

/**
 * POST /api/payments/{id}/confirm. With the test provider the card fields are required and checked
 * here (a malformed card is a 400 with a message per field); with Stripe the browser confirms the
 * card through Stripe.js and sends `{}`: the call then asks Stripe how the payment went.
 */
export const paymentConfirmBodySchema = z.strictObject({
  cardNumber: z
    .string({ error: CARD_NUMBER_MESSAGE })
    .transform(normaliseCardNumber)
    .refine((value) => /^\d{12,19}$/.test(value) && passesLuhn(value), CARD_NUMBER_MESSAGE)
    .optional(),
  expiry: z
    .string({ error: CARD_EXPIRY_MESSAGE })
    .refine((value) => parseExpiry(value) !== null, CARD_EXPIRY_MESSAGE)
    .meta({ pattern: CARD_EXPIRY_PATTERN.source })
    .optional(),
  cvc: z
    .string({ error: CARD_CVC_MESSAGE })
    .regex(/^\d{3,4}$/, CARD_CVC_MESSAGE)
    .optional(),
  name: z
    .string({ error: CARD_NAME_MESSAGE })
    .trim()
    .min(1, CARD_NAME_MESSAGE)
    .max(100, 'Name on card must be at most 100 characters')
    .optional(),
});
export type PaymentConfirmBody = z.infer<typeof paymentConfirmBodySchema>;

/**
 * Answer of POST /api/payments/{id}/confirm and GET /api/payments/{id}. `succeeded` comes with the
 * orders the payment made (the same orders however often success is reported); `requires_payment`
 * or `processing` (Stripe only) means the card has not been charged yet; `refunded` means the money
 * went back, with the reason in `message` (an item sold out between payment and order).
 */
export const paymentResultSchema = z.object({
  paymentId: z.string(),
  provider: paymentProviderSchema,
  status: z.enum([
    'requires_payment',
    'processing',
    'succeeded',
    'refunded',
    'partially_refunded',
    'failed',
    'cancelled',
  ]),
  amount: moneyStringSchema,
  message: z.string().nullable(),
  orders: z.array(orderSchema),
});
export type PaymentResult = z.infer<typeof paymentResultSchema>;

export const paymentIdParamsSchema = z.object({ id: idSchema });
