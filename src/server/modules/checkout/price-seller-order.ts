import { AppError } from '../../platform/errors';
import { getPickupSlots } from '../availability/availability.service';
import { toPickupAddress } from '../addresses/addresses.service';
import {
  PICKUP_TIME_UNAVAILABLE,
  SELECT_PICKUP_TIME,
  type CheckoutBody,
  type CheckoutLine,
  type CheckoutOrder,
} from '../../../domain/checkout';
import { deliveryFeeFor, type DeliveryFee } from '../../../domain/fees';
import { formatCents, parseCents, sumCents } from '../../../domain/money';
import { displayName } from '../../../domain/roles';
import { addressText, type CheckoutDeps, type PricedOrder } from './checkout.service';
import type { CheckoutAddress } from './checkout.queries';
import { problem, type Line, type Problems } from './read-cart-lines';

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

/** For a pickup, each seller needs a time chosen from that seller's current slots. */
async function checkPickupTime(
  deps: CheckoutDeps,
  body: CheckoutBody,
  sellerId: string,
): Promise<{ scheduledPickupTime: string | null; problems: Problems }> {
  if (!body.isPickup) return { scheduledPickupTime: null, problems: [] };
  const chosen = body.scheduledPickupTimes?.[sellerId];
  const field = `scheduledPickupTimes.${sellerId}`;
  if (!chosen)
    return {
      scheduledPickupTime: null,
      problems: [problem('missing_pickup_time', SELECT_PICKUP_TIME, field, { sellerId })],
    };
  const instant = new Date(chosen).getTime();
  const isSlot = (await pickupSlotTimes(deps, sellerId)).has(instant);
  return {
    scheduledPickupTime: new Date(instant).toISOString(),
    problems: isSlot
      ? []
      : [problem('pickup_time_unavailable', PICKUP_TIME_UNAVAILABLE, field, { sellerId })],
  };
}

/** Who delivers one seller's order and for what fee (`deliveryFeeFor` in src/domain/fees.ts). */
function chooseDelivery(lines: readonly Line[], isPickup: boolean): DeliveryFee {
  return deliveryFeeFor(
    lines.map(({ row: { product } }) => ({
      requiresTrailer: product.requiresTrailer,
      sellerDelivery: product.sellerDelivery,
      sellerDeliveryFee: product.sellerDeliveryFee === null ? null : parseCents(product.sellerDeliveryFee),
    })),
    isPickup,
  );
}

/** One seller's order as the quote shows it, as the payment keeps it, and what stops paying it. */
export interface PricedSellerOrder {
  order: CheckoutOrder;
  priced: PricedOrder;
  problems: Problems;
}

/**
 * One seller's order: its delivery method and fee, its pickup time, its items at current prices,
 * the subtotal and the total; as the quote shows it and as the payment keeps it.
 */
export async function priceSellerOrder(
  deps: CheckoutDeps,
  body: CheckoutBody,
  group: { sellerId: string; lines: Line[] },
  pickupRow: CheckoutAddress | undefined,
): Promise<PricedSellerOrder> {
  const { sellerId, lines } = group;
  const { isPickup } = body;
  const fee = chooseDelivery(lines, isPickup);
  const { scheduledPickupTime, problems } = await checkPickupTime(deps, body, sellerId);
  const items: CheckoutLine[] = lines.map(({ row: { product }, quantity, expectedPrice }) => ({
    productId: product.id,
    name: product.name,
    imageUrl: product.imageUrl,
    quantity,
    price: formatCents(parseCents(product.price)),
    expectedPrice,
    lineTotal: formatCents(parseCents(product.price) * quantity),
    available: product.onSale,
    stock: product.stock,
    requiresTrailer: product.requiresTrailer,
    sellerDelivery: product.sellerDelivery,
    offerPickup: product.offerPickup,
  }));
  const productSubtotal = sumCents(lines.map((l) => parseCents(l.row.product.price) * l.quantity));
  const first = lines[0]?.row;
  const order: CheckoutOrder = {
    sellerId,
    sellerName: displayName({
      firstName: first?.sellerFirstName,
      lastName: first?.sellerLastName,
      role: 'seller',
    }),
    isPickup,
    sellerDelivery: fee.sellerDelivery,
    requiresTrailer: fee.requiresTrailer,
    offerPickup: lines.every((l) => l.row.product.offerPickup),
    scheduledPickupTime,
    pickupAddress: pickupRow ? toPickupAddress(pickupRow) : null,
    items,
    productSubtotal: formatCents(productSubtotal),
    deliveryFee: formatCents(fee.deliveryFee),
    total: formatCents(productSubtotal + fee.deliveryFee),
  };
  const priced: PricedOrder = {
    sellerId,
    sellerDelivery: fee.sellerDelivery,
    requiresTrailer: fee.requiresTrailer,
    scheduledPickupTime,
    pickupAddressId: pickupRow?.id ?? null,
    pickupAddress: pickupRow ? addressText(pickupRow) : null,
    productSubtotal,
    deliveryFee: fee.deliveryFee,
    items: lines.map(({ row: { product }, quantity }) => ({
      productId: product.id,
      name: product.name,
      quantity,
      price: parseCents(product.price),
    })),
  };
  return { order, priced, problems };
}
