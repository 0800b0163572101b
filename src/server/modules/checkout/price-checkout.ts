import type { Db } from '../../db/client';
import type { Actor } from '../../platform/sessions';
import {
  SELECT_DELIVERY_ADDRESS,
  SELECTED_ADDRESS_NOT_FOUND,
  type CheckoutBody,
  type CheckoutQuote,
} from '../../../domain/checkout';
import { splitBySeller } from '../../../domain/fees';
import { formatCents, sumCents, type Cents } from '../../../domain/money';
import { addressText, type CheckoutDeps, type PricedCheckout, type PricedOrder } from './checkout.service';
import { findAddressOfUser, type CheckoutAddress } from './checkout.queries';
import { priceSellerOrder, type PricedSellerOrder } from './price-seller-order';
import { problem, readCartLines, type Line, type Problems } from './read-cart-lines';
import { isPickupAvailable } from '../../../domain/pickup';

/** Pickup only when every item offers it: each item that does not is a problem. */
function reportPickupNotOffered(lines: readonly Line[], isPickup: boolean): Problems {
  if (!isPickup) return [];
  return lines
    .filter((line) => !line.row.product.offerPickup)
    .map((line) =>
      problem('pickup_not_offered', `${line.row.product.name} cannot be picked up`, 'isPickup', {
        productId: line.productId,
        sellerId: line.sellerId,
      }),
    );
}

/**
 * For a delivery, one of the buyer's own addresses must be chosen. It was read with the cart's
 * products; only a cart none of whose products exist any more reads it on its own.
 */
async function findDeliveryAddress(
  db: Db,
  actor: Actor,
  body: CheckoutBody,
  lines: readonly Line[],
): Promise<{ address: CheckoutAddress | undefined; problems: Problems }> {
  if (body.isPickup) return { address: undefined, problems: [] };
  if (!body.deliveryAddressId)
    return {
      address: undefined,
      problems: [problem('missing_address', SELECT_DELIVERY_ADDRESS, 'deliveryAddressId')],
    };
  const first = lines[0];
  const address = first
    ? (first.row.deliveryAddress ?? undefined)
    : await findAddressOfUser(db, actor.id, body.deliveryAddressId);
  if (!address)
    return {
      address,
      problems: [problem('address_not_found', SELECTED_ADDRESS_NOT_FOUND, 'deliveryAddressId')],
    };
  return { address, problems: [] };
}

/** The sums over every seller's order, in cents. */
function sumOrders(priced: readonly PricedOrder[]): {
  productSubtotal: Cents;
  deliveryFee: Cents;
  total: Cents;
} {
  const sum = (pick: (order: PricedOrder) => Cents) => sumCents(priced.map(pick));
  return {
    productSubtotal: sum((o) => o.productSubtotal),
    deliveryFee: sum((o) => o.deliveryFee),
    total: sum((o) => o.productSubtotal + o.deliveryFee),
  };
}

/**
 * Prices a checkout from the database (docs/rules/catalog-and-orders.md, Checkout and orders): current
 * prices, one order per seller, the delivery fee of each, the totals, and every problem that stops payment.
 * Nothing is written.
 */
export async function priceCheckout(
  deps: CheckoutDeps,
  actor: Actor,
  body: CheckoutBody,
  options: { openPayments?: boolean } = {},
): Promise<{
  quote: CheckoutQuote;
  priced: PricedCheckout;
  /**
   * With `openPayments`: the actor's open payments, their ids by checkout key, read with the
   * products; undefined when no product was read.
   */
  openPayments?: ReadonlyMap<string, string>;
}> {
  const { isPickup } = body;
  const cart = await readCartLines(
    deps.db,
    actor,
    body.items,
    !isPickup && body.deliveryAddressId ? { userId: actor.id, addressId: body.deliveryAddressId } : undefined,
    options.openPayments ? actor.id : undefined,
  );
  const read = cart.lines[0]?.row;
  const delivery = await findDeliveryAddress(deps.db, actor, body, cart.lines);
  const groups = splitBySeller(cart.lines);
  // Each seller's primary address, read with the products.
  const sellerAddresses = new Map<string, CheckoutAddress>();
  for (const { row, sellerId } of cart.lines)
    if (row.sellerAddress) sellerAddresses.set(sellerId, row.sellerAddress);
  const sellers: PricedSellerOrder[] = [];
  for (const group of groups)
    sellers.push(await priceSellerOrder(deps, body, group, sellerAddresses.get(group.sellerId)));

  const problems: Problems = [
    ...cart.problems,
    ...reportPickupNotOffered(cart.lines, isPickup),
    ...delivery.problems,
    ...sellers.flatMap((seller) => seller.problems),
  ];
  const orders = sellers.map((seller) => seller.order);
  const priced = sellers.map((seller) => seller.priced);
  const totals = sumOrders(priced);
  const deliveryAddressId = delivery.address?.id ?? null;
  const deliveryText = delivery.address ? addressText(delivery.address) : null;
  const deliveryNotes = body.deliveryNotes ? body.deliveryNotes : null;
  return {
    quote: {
      isPickup,
      pickupAvailable: isPickupAvailable(cart.lines.map((line) => line.row.product)),
      deliveryAddressId,
      deliveryAddress: deliveryText,
      deliveryNotes,
      orders,
      productSubtotal: formatCents(totals.productSubtotal),
      deliveryFee: formatCents(totals.deliveryFee),
      total: formatCents(totals.total),
      itemCount: cart.lines.reduce((count, line) => count + line.quantity, 0),
      problems,
      canPay: problems.length === 0 && orders.length > 0,
    },
    priced: {
      version: 1,
      buyerId: actor.id,
      isPickup,
      deliveryAddressId,
      deliveryAddress: deliveryText,
      deliveryNotes,
      total: totals.total,
      orders: priced,
    },
    ...(options.openPayments && read
      ? { openPayments: new Map(Object.entries(read.openPayments ?? {})) }
      : {}),
  };
}
