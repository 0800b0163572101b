import { eq } from 'drizzle-orm';
import { addresses, availabilitySchedules, payments, products, refunds } from '../db/schema';
import { as, signedInAs, type TestApp, type TestUser } from './test-app';

/**
 * Factories for checkout, payment and order tests: products and addresses straight into the
 * database (with overrides), and the buyer's calls through app.inject.
 */

let productCounter = 0;

export interface ProductOverrides {
  name?: string;
  price?: string;
  stock?: number;
  available?: boolean;
  requiresTrailer?: boolean;
  sellerDelivery?: boolean;
  sellerDeliveryFee?: string | null;
  offerPickup?: boolean;
  description?: string;
}

export async function createProduct(t: TestApp, sellerId: string, overrides: ProductOverrides = {}) {
  productCounter += 1;
  const [row] = await t.database.db
    .insert(products)
    .values({
      sellerId,
      name: overrides.name ?? `Product ${productCounter}`,
      description: overrides.description ?? `Description of product ${productCounter}`,
      price: overrides.price ?? '20.00',
      category: 'Furniture',
      stock: overrides.stock ?? 10,
      available: overrides.available ?? true,
      requiresTrailer: overrides.requiresTrailer ?? false,
      sellerDelivery: overrides.sellerDelivery ?? false,
      sellerDeliveryFee: overrides.sellerDeliveryFee ?? null,
      offerPickup: overrides.offerPickup ?? false,
    })
    .returning();
  if (!row) throw new Error('no product row');
  return row;
}

export async function createAddress(t: TestApp, userId: string, isPrimary = true) {
  const [row] = await t.database.db
    .insert(addresses)
    .values({
      userId,
      addressLine1: '1 Main St',
      city: 'Springfield',
      state: 'IL',
      zipCode: '62701',
      latitude: '39.7990000',
      longitude: '-89.6440000',
      isPrimary,
    })
    .returning();
  if (!row) throw new Error('no address row');
  return row;
}

/** A seller who offers pickups every day 00:00 to 23:59, so slots always exist. */
export async function openEveryDay(t: TestApp, sellerId: string): Promise<void> {
  await t.database.db.insert(availabilitySchedules).values(
    [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({
      userId: sellerId,
      dayOfWeek,
      startTime: '00:00',
      endTime: '23:59',
    })),
  );
}

export async function stockOf(t: TestApp, productId: string): Promise<number> {
  const [row] = await t.database.db
    .select({ stock: products.stock })
    .from(products)
    .where(eq(products.id, productId));
  if (!row) throw new Error('no such product');
  return row.stock;
}

export async function paymentRow(t: TestApp, paymentId: string) {
  const [row] = await t.database.db.select().from(payments).where(eq(payments.id, paymentId));
  return row;
}

export async function refundsOf(t: TestApp, paymentId: string) {
  return t.database.db.select().from(refunds).where(eq(refunds.paymentId, paymentId));
}

export const SUCCEEDING_CARD = {
  cardNumber: '4242 4242 4242 4242',
  expiry: '12/40',
  cvc: '123',
  name: 'Bailey Buyer',
};
export const DECLINED_CARD = { ...SUCCEEDING_CARD, cardNumber: '4000 0000 0000 0002' };

export interface PaymentJson {
  paymentId: string;
  provider: string;
  clientSecret: string | null;
  amount: string;
  quote: { total: string; problems: { code: string; message: string }[] };
}

export interface OrderJson {
  id: string;
  orderNumber: string;
  status: string;
  total?: string;
  productSubtotal?: string;
  deliveryFee?: string;
  sellerEarnings?: string;
  driverEarnings: string;
  platformFee?: string;
  sellerId: string;
  buyerId: string;
  [key: string]: unknown;
}

export function quote(t: TestApp, buyer: TestUser, payload: Record<string, unknown>) {
  return as(t, buyer, { method: 'POST', url: '/api/checkout/quote', payload });
}

export function startPayment(t: TestApp, buyer: TestUser, payload: Record<string, unknown>) {
  return as(t, buyer, { method: 'POST', url: '/api/payments', payload });
}

export function confirm(
  t: TestApp,
  buyer: TestUser,
  paymentId: string,
  payload: Record<string, unknown> = SUCCEEDING_CARD,
) {
  return as(t, buyer, { method: 'POST', url: `/api/payments/${paymentId}/confirm`, payload });
}

/** Checkout and pay with the succeeding test card; answers the orders made. */
export async function buy(
  t: TestApp,
  buyer: TestUser,
  payload: Record<string, unknown>,
): Promise<OrderJson[]> {
  const started = await startPayment(t, buyer, payload);
  if (started.statusCode !== 201) throw new Error(`payment failed: ${started.statusCode} ${started.body}`);
  const confirmed = await confirm(t, buyer, started.json<PaymentJson>().paymentId);
  if (confirmed.statusCode !== 200)
    throw new Error(`confirm failed: ${confirmed.statusCode} ${confirmed.body}`);
  return confirmed.json<{ orders: OrderJson[] }>().orders;
}

/**
 * A new buyer's payment started (201) for `quantity` units of a new seller's new product at 25.00
 * with `stock` units, delivered to the buyer's primary address.
 */
export async function startedPaymentFor(t: TestApp, options: { stock: number; quantity: number }) {
  const seller = await signedInAs(t, 'seller');
  await createAddress(t, seller.id);
  const product = await createProduct(t, seller.id, { price: '25.00', stock: options.stock });
  const buyer = await signedInAs(t, 'buyer');
  const address = await createAddress(t, buyer.id);
  const started = await startPayment(t, buyer, {
    items: [{ productId: product.id, quantity: options.quantity }],
    isPickup: false,
    deliveryAddressId: address.id,
  });
  if (started.statusCode !== 201) throw new Error(`payment failed: ${started.statusCode} ${started.body}`);
  return { product, buyer, paymentId: started.json<PaymentJson>().paymentId };
}
