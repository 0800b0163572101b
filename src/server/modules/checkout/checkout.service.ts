import { z } from 'zod';
import type { Db } from '../../db/client';
import type { Actor } from '../../platform/sessions';
import { AppError } from '../../platform/errors';
import { getPickupSlots } from '../availability/availability.service';
import { toPickupAddress } from '../addresses/addresses.service';
import {
  ITEM_PROBLEM_CODES,
  PICKUP_TIME_UNAVAILABLE,
  SELECT_DELIVERY_ADDRESS,
  SELECT_PICKUP_TIME,
  SELECTED_ADDRESS_NOT_FOUND,
  type CheckoutBody,
  type CheckoutLine,
  type CheckoutOrder,
  type CheckoutProblem,
  type CheckoutQuote,
} from '../../../domain/checkout';
import { deliveryFeeFor, splitBySeller } from '../../../domain/fees';
import { formatCents, formatUsd, parseCents, sumCents, type Cents } from '../../../domain/money';
import { displayName } from '../../../domain/roles';
import {
  findAddressOfUser,
  findPrimaryAddressesOf,
  findProductsForCheckout,
  type AddressRow,
  type CheckoutProductRow,
} from './checkout.queries';

export interface CheckoutDeps {
  db: Db;
  now: () => Date;
  /** MARKETPLACE_TZ: pickup slots are checked in it. */
  timeZone: string;
}

/**
 * The checkout as priced by the server, kept with the payment (payments.checkout) so that a success
 * reported late, by the webhook or at start-up, still makes exactly these orders at exactly the
 * amounts charged. Cents are integers here.
 */
export const pricedCheckoutSchema = z.object({
  version: z.literal(1),
  buyerId: z.string(),
  isPickup: z.boolean(),
  deliveryAddressId: z.string().nullable(),
  deliveryAddress: z.string().nullable(),
  deliveryNotes: z.string().nullable(),
  total: z.number().int(),
  orders: z.array(
    z.object({
      sellerId: z.string(),
      sellerDelivery: z.boolean(),
      requiresTrailer: z.boolean(),
      scheduledPickupTime: z.string().nullable(),
      pickupAddressId: z.string().nullable(),
      pickupAddress: z.string().nullable(),
      productSubtotal: z.number().int(),
      deliveryFee: z.number().int(),
      items: z.array(
        z.object({
          productId: z.string(),
          name: z.string(),
          quantity: z.number().int(),
          price: z.number().int(),
        }),
      ),
    }),
  ),
});
export type PricedCheckout = z.infer<typeof pricedCheckoutSchema>;
export type PricedOrder = PricedCheckout['orders'][number];

/** "1 Main St, Apt 2, Springfield, IL 62701". */
export function addressText(row: AddressRow): string {
  return [row.addressLine1, row.addressLine2, `${row.city}, ${row.state} ${row.zipCode}`]
    .filter((part): part is string => Boolean(part && part.trim()))
    .join(', ');
}

/** What a pickup order stores as its delivery address (the column is required). */
export function pickupText(pickupAddress: string | null): string {
  return pickupAddress ? `Pickup at ${pickupAddress}` : 'Pickup from the seller';
}

interface Line {
  productId: string;
  quantity: number;
  expectedPrice: string | null;
  row: CheckoutProductRow;
  sellerId: string;
}

/** The same product twice in a cart is one line with the quantities added. */
function mergeLines(items: CheckoutBody['items']) {
  const merged = new Map<string, { quantity: number; expectedPrice: string | null }>();
  for (const item of items) {
    const line = merged.get(item.productId);
    if (line) line.quantity += item.quantity;
    else merged.set(item.productId, { quantity: item.quantity, expectedPrice: item.expectedPrice ?? null });
  }
  return merged;
}

const problem = (
  code: CheckoutProblem['code'],
  message: string,
  field: string,
  ids: { productId?: string; sellerId?: string } = {},
): CheckoutProblem => ({
  code,
  message,
  field,
  productId: ids.productId ?? null,
  sellerId: ids.sellerId ?? null,
});

function itemProblems(line: Line): CheckoutProblem[] {
  const { product } = line.row;
  const ids = { productId: product.id, sellerId: product.sellerId };
  if (!product.available)
    return [problem('unavailable', `${product.name} is no longer available`, 'items', ids)];
  if (product.stock <= 0) return [problem('out_of_stock', `Out of stock: ${product.name}`, 'items', ids)];
  const found: CheckoutProblem[] = [];
  if (product.stock < line.quantity)
    found.push(problem('insufficient_stock', `Only ${product.stock} left of ${product.name}`, 'items', ids));
  const price = parseCents(product.price);
  if (line.expectedPrice !== null && parseCents(line.expectedPrice) !== price)
    found.push(
      problem(
        'price_changed',
        `The price of ${product.name} changed from ${formatUsd(parseCents(line.expectedPrice))} to ${formatUsd(price)}`,
        'items',
        ids,
      ),
    );
  return found;
}

async function pickupSlotTimes(deps: CheckoutDeps, sellerId: string): Promise<Set<number>> {
  try {
    const slots = await getPickupSlots(deps.db, sellerId, deps.timeZone, deps.now());
    return new Set(slots.map((slot) => new Date(slot.datetime).getTime()));
  } catch (error) {
    // A user who is no longer a seller offers no pickup times.
    if (error instanceof AppError && error.code === 'not_found') return new Set();
    throw error;
  }
}

/**
 * Prices a checkout from the database (DECISIONS §5): current prices, one order per seller, the
 * delivery fee of each, the totals, and every problem that stops payment. Nothing is written.
 */
export async function priceCheckout(
  deps: CheckoutDeps,
  actor: Actor,
  body: CheckoutBody,
): Promise<{ quote: CheckoutQuote; priced: PricedCheckout }> {
  const problems: CheckoutProblem[] = [];
  const wanted = mergeLines(body.items);
  const rows = await findProductsForCheckout(deps.db, [...wanted.keys()]);
  const byId = new Map(rows.map((row) => [row.product.id, row]));
  const lines: Line[] = [];
  for (const [productId, { quantity, expectedPrice }] of wanted) {
    const row = byId.get(productId);
    if (!row) {
      problems.push(
        problem('product_not_found', 'A product in your cart no longer exists', 'items', { productId }),
      );
      continue;
    }
    const line = { productId, quantity, expectedPrice, row, sellerId: row.product.sellerId };
    lines.push(line);
    problems.push(...itemProblems(line));
  }

  const pickupAvailable = lines.length > 0 && lines.every((line) => line.row.product.offerPickup);
  const isPickup = body.isPickup;
  if (isPickup) {
    for (const line of lines.filter((l) => !l.row.product.offerPickup))
      problems.push(
        problem('pickup_not_offered', `${line.row.product.name} cannot be picked up`, 'isPickup', {
          productId: line.productId,
          sellerId: line.sellerId,
        }),
      );
  }

  let deliveryAddress: AddressRow | undefined;
  if (!isPickup) {
    if (!body.deliveryAddressId)
      problems.push(problem('missing_address', SELECT_DELIVERY_ADDRESS, 'deliveryAddressId'));
    else {
      deliveryAddress = await findAddressOfUser(deps.db, actor.id, body.deliveryAddressId);
      if (!deliveryAddress)
        problems.push(problem('address_not_found', SELECTED_ADDRESS_NOT_FOUND, 'deliveryAddressId'));
    }
  }

  const groups = splitBySeller(lines);
  const sellerAddresses = await findPrimaryAddressesOf(
    deps.db,
    groups.map((group) => group.sellerId),
  );
  const orders: CheckoutOrder[] = [];
  const priced: PricedOrder[] = [];
  for (const group of groups) {
    const { sellerId } = group;
    const fee = deliveryFeeFor(
      group.lines.map(({ row: { product } }) => ({
        requiresTrailer: product.requiresTrailer,
        sellerDelivery: product.sellerDelivery,
        sellerDeliveryFee: product.sellerDeliveryFee === null ? null : parseCents(product.sellerDeliveryFee),
      })),
      isPickup,
    );
    let scheduledPickupTime: string | null = null;
    if (isPickup) {
      const chosen = body.scheduledPickupTimes?.[sellerId];
      const field = `scheduledPickupTimes.${sellerId}`;
      if (!chosen) problems.push(problem('missing_pickup_time', SELECT_PICKUP_TIME, field, { sellerId }));
      else {
        const instant = new Date(chosen).getTime();
        if (!(await pickupSlotTimes(deps, sellerId)).has(instant))
          problems.push(problem('pickup_time_unavailable', PICKUP_TIME_UNAVAILABLE, field, { sellerId }));
        scheduledPickupTime = new Date(instant).toISOString();
      }
    }
    const pickupRow = sellerAddresses.get(sellerId);
    const items: CheckoutLine[] = group.lines.map(({ row: { product }, quantity, expectedPrice }) => ({
      productId: product.id,
      name: product.name,
      imageUrl: product.imageUrl,
      quantity,
      price: formatCents(parseCents(product.price)),
      expectedPrice,
      lineTotal: formatCents(parseCents(product.price) * quantity),
      available: product.available,
      stock: product.stock,
      requiresTrailer: product.requiresTrailer,
      sellerDelivery: product.sellerDelivery,
      offerPickup: product.offerPickup,
    }));
    const productSubtotal = sumCents(group.lines.map((l) => parseCents(l.row.product.price) * l.quantity));
    const first = group.lines[0]?.row;
    orders.push({
      sellerId,
      sellerName: displayName({
        firstName: first?.sellerFirstName,
        lastName: first?.sellerLastName,
        role: 'seller',
      }),
      isPickup,
      sellerDelivery: fee.sellerDelivery,
      requiresTrailer: fee.requiresTrailer,
      offerPickup: group.lines.every((l) => l.row.product.offerPickup),
      scheduledPickupTime,
      pickupAddress: pickupRow ? toPickupAddress(pickupRow) : null,
      items,
      productSubtotal: formatCents(productSubtotal),
      deliveryFee: formatCents(fee.deliveryFee),
      total: formatCents(productSubtotal + fee.deliveryFee),
    });
    priced.push({
      sellerId,
      sellerDelivery: fee.sellerDelivery,
      requiresTrailer: fee.requiresTrailer,
      scheduledPickupTime,
      pickupAddressId: pickupRow?.id ?? null,
      pickupAddress: pickupRow ? addressText(pickupRow) : null,
      productSubtotal,
      deliveryFee: fee.deliveryFee,
      items: group.lines.map(({ row: { product }, quantity }) => ({
        productId: product.id,
        name: product.name,
        quantity,
        price: parseCents(product.price),
      })),
    });
  }

  const sum = (pick: (order: PricedOrder) => Cents) => sumCents(priced.map(pick));
  const total = sum((o) => o.productSubtotal + o.deliveryFee);
  const deliveryText = deliveryAddress ? addressText(deliveryAddress) : null;
  const deliveryNotes = body.deliveryNotes ? body.deliveryNotes : null;
  return {
    quote: {
      isPickup,
      pickupAvailable,
      deliveryAddressId: deliveryAddress?.id ?? null,
      deliveryAddress: deliveryText,
      deliveryNotes,
      orders,
      productSubtotal: formatCents(sum((o) => o.productSubtotal)),
      deliveryFee: formatCents(sum((o) => o.deliveryFee)),
      total: formatCents(total),
      itemCount: lines.reduce((count, line) => count + line.quantity, 0),
      problems,
      canPay: problems.length === 0 && orders.length > 0,
    },
    priced: {
      version: 1,
      buyerId: actor.id,
      isPickup,
      deliveryAddressId: deliveryAddress?.id ?? null,
      deliveryAddress: deliveryText,
      deliveryNotes,
      total,
      orders: priced,
    },
  };
}

/** Whether a problem is about the cart's items (409) rather than a missing or wrong choice (400). */
export function isItemProblem(found: CheckoutProblem): boolean {
  return ITEM_PROBLEM_CODES.includes(found.code);
}
