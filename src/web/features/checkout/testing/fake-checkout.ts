import {
  checkoutBodySchema,
  type CheckoutBody,
  type CheckoutOrder,
  type CheckoutProblem,
  type CheckoutQuote,
  type PaymentIntent,
} from '@domain/checkout';
import type { Address } from '@domain/addresses';
import { deliveryFeeFor, splitBySeller } from '@domain/fees';
import { formatCents, parseCents, sumCents } from '@domain/money';
import { isPickupAvailable } from '@domain/pickup';
import type { CartItem } from '../../cart/cart-store';
import { jsonResponse, type Route } from '../../../test-support/render';

/**
 * A stand-in for the server's checkout pricing in browser tests: the same fee rules from domain/,
 * one order per seller, and the missing-choice problems with the spec's texts.
 */
export interface FakeProduct {
  id: string;
  name: string;
  price: string;
  sellerId: string;
  sellerName: string;
  offerPickup: boolean;
  stock?: number;
}

export const SELLER_A = '00000000-0000-4000-8000-00000000000a';
export const SELLER_B = '00000000-0000-4000-8000-00000000000b';

export const LAMP: FakeProduct = {
  id: '30000000-0000-4000-8000-000000000001',
  name: 'Desk Lamp',
  price: '12.50',
  sellerId: SELLER_A,
  sellerName: 'Sam Seller',
  offerPickup: true,
};
export const CHAIR: FakeProduct = {
  id: '30000000-0000-4000-8000-000000000002',
  name: 'Oak Chair',
  price: '40.00',
  sellerId: SELLER_B,
  sellerName: 'Morgan Maker',
  offerPickup: false,
};
export const VASE: FakeProduct = {
  id: '30000000-0000-4000-8000-000000000003',
  name: 'Glass Vase',
  price: '20.00',
  sellerId: SELLER_B,
  sellerName: 'Morgan Maker',
  offerPickup: true,
};

export function cartItemOf(product: FakeProduct, quantity = 1): CartItem {
  return {
    id: product.id,
    name: product.name,
    price: product.price,
    sellerId: product.sellerId,
    sellerName: product.sellerName,
    offerPickup: product.offerPickup,
    available: true,
    stock: product.stock ?? 10,
    quantity,
  };
}

export function putInCart(...items: CartItem[]): void {
  window.localStorage.setItem('cart', JSON.stringify(items));
}

export function makeAddress(overrides: Partial<Address> = {}): Address {
  return {
    id: '50000000-0000-4000-8000-000000000001',
    userId: '00000000-0000-4000-8000-000000000001',
    addressLine1: '1 Main St',
    addressLine2: null,
    city: 'Chicago',
    state: 'IL',
    zipCode: '60601',
    country: 'US',
    latitude: 41.88,
    longitude: -87.62,
    isVerified: true,
    isPrimary: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function quoteFor(
  body: CheckoutBody,
  products: readonly FakeProduct[],
  addresses: readonly Address[],
): CheckoutQuote {
  const lines = body.items.flatMap((item) => {
    const product = products.find((candidate) => candidate.id === item.productId);
    return product ? [{ ...item, product, sellerId: product.sellerId }] : [];
  });
  const problems: CheckoutProblem[] = [];
  const address = addresses.find((candidate) => candidate.id === body.deliveryAddressId);
  if (!body.isPickup && !body.deliveryAddressId)
    problems.push({
      code: 'missing_address',
      message: 'Please select a delivery address',
      field: 'deliveryAddressId',
      productId: null,
      sellerId: null,
    });
  for (const line of lines) {
    if (line.expectedPrice && line.expectedPrice !== line.product.price)
      problems.push({
        code: 'price_changed',
        message: `The price of ${line.product.name} changed`,
        field: 'items',
        productId: line.product.id,
        sellerId: line.sellerId,
      });
  }
  const orders: CheckoutOrder[] = splitBySeller(lines).map((group) => {
    const fee = deliveryFeeFor(
      group.lines.map(() => ({ requiresTrailer: false, sellerDelivery: false, sellerDeliveryFee: null })),
      body.isPickup,
    );
    const subtotal = sumCents(group.lines.map((line) => parseCents(line.product.price) * line.quantity));
    const time = body.scheduledPickupTimes?.[group.sellerId] ?? null;
    if (body.isPickup && !time)
      problems.push({
        code: 'missing_pickup_time',
        message: 'Please select a pickup time from the seller',
        field: `scheduledPickupTimes.${group.sellerId}`,
        productId: null,
        sellerId: group.sellerId,
      });
    return {
      sellerId: group.sellerId,
      sellerName: group.lines[0]?.product.sellerName ?? 'Seller',
      isPickup: body.isPickup,
      sellerDelivery: false,
      requiresTrailer: false,
      offerPickup: group.lines.every((line) => line.product.offerPickup),
      scheduledPickupTime: time,
      pickupAddress: {
        addressLine1: '700 E Grand Ave',
        addressLine2: null,
        city: 'Chicago',
        state: 'IL',
        zipCode: '60611',
        latitude: null,
        longitude: null,
      },
      items: group.lines.map((line) => ({
        productId: line.product.id,
        name: line.product.name,
        imageUrl: null,
        quantity: line.quantity,
        price: line.product.price,
        expectedPrice: line.expectedPrice ?? null,
        lineTotal: formatCents(parseCents(line.product.price) * line.quantity),
        available: true,
        stock: line.product.stock ?? 10,
        requiresTrailer: false,
        sellerDelivery: false,
        offerPickup: line.product.offerPickup,
      })),
      productSubtotal: formatCents(subtotal),
      deliveryFee: formatCents(fee.deliveryFee),
      total: formatCents(subtotal + fee.deliveryFee),
    };
  });
  const sum = (pick: (order: CheckoutOrder) => string) =>
    formatCents(sumCents(orders.map((order) => parseCents(pick(order)))));
  return {
    isPickup: body.isPickup,
    pickupAvailable: isPickupAvailable(lines.map((line) => line.product)),
    deliveryAddressId: address?.id ?? null,
    deliveryAddress: address
      ? `${address.addressLine1}, ${address.city}, ${address.state} ${address.zipCode}`
      : null,
    deliveryNotes: body.deliveryNotes ?? null,
    orders,
    productSubtotal: sum((order) => order.productSubtotal),
    deliveryFee: sum((order) => order.deliveryFee),
    total: sum((order) => order.total),
    itemCount: lines.reduce((count, line) => count + line.quantity, 0),
    problems,
    canPay: problems.length === 0 && orders.length > 0,
  };
}

export function checkoutBodyOfRequest(init: RequestInit | undefined): CheckoutBody {
  return checkoutBodySchema.parse(JSON.parse(typeof init?.body === 'string' ? init.body : '{}'));
}

/** POST /api/checkout/quote and POST /api/payments answered from `quoteFor`. */
export function checkoutRoutes(products: readonly FakeProduct[], addresses: readonly Address[]): Route {
  return (url, init) => {
    if (url === '/api/addresses') return jsonResponse(addresses);
    if (url === '/api/checkout/quote' && init?.method === 'POST')
      return jsonResponse(quoteFor(checkoutBodyOfRequest(init), products, addresses));
    if (url.startsWith('/api/availability/slots/'))
      return jsonResponse([
        { datetime: '2026-03-02T15:00:00.000Z', label: 'Mon, Mar 2 · 9:00 AM' },
        { datetime: '2026-03-02T15:30:00.000Z', label: 'Mon, Mar 2 · 9:30 AM' },
      ]);
    return undefined;
  };
}

export function paymentIntentFor(
  body: CheckoutBody,
  products: readonly FakeProduct[],
  addresses: readonly Address[],
): PaymentIntent {
  const quote = quoteFor(body, products, addresses);
  return {
    paymentId: '60000000-0000-4000-8000-000000000001',
    provider: 'test',
    clientSecret: null,
    publishableKey: null,
    amount: quote.total,
    currency: 'usd',
    quote,
  };
}
