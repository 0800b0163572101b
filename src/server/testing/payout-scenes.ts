import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { addresses, deliveryProofSettings, ledgerEntries, payouts, users } from '../db/schema';
import { buy, createAddress, createProduct, type OrderJson, type ProductOverrides } from './commerce';
import { as, createUser, signIn, signedInAs, type TestApp, type TestUser } from './test-app';

/**
 * Scenes for payout tests: a driver-delivered order (buyer, seller, verified driver), moved
 * through the real routes, and payout accounts made ready the way the payout accounts record them.
 */

/** A driver with vehicle and license on file and approved, signed in. */
export async function verifiedDriver(t: TestApp): Promise<TestUser> {
  const user = await createUser(t, { roles: ['buyer', 'driver'], isVerified: true });
  await t.database.db
    .update(users)
    .set({
      vehicleImageUrl: `/objects/uploads/${crypto.randomUUID()}`,
      licenseImageUrl: `/objects/uploads/${crypto.randomUUID()}`,
    })
    .where(eq(users.id, user.id));
  await primaryAddressOf(t, user.id);
  return { ...user, cookie: await signIn(t, user.email, user.password) };
}

/** Records a payout account as ready (onboarding complete, active), as the payout accounts do. */
export async function makeAccountReady(t: TestApp, userId: string, accountId?: string): Promise<string> {
  const id = accountId ?? `tacct_${crypto.randomBytes(8).toString('hex')}`;
  await t.database.db
    .update(users)
    .set({ stripeAccountId: id, stripeOnboardingComplete: true, stripeAccountStatus: 'active' })
    .where(eq(users.id, userId));
  return id;
}

export interface DeliveryScene {
  buyer: TestUser;
  seller: TestUser;
  driver: TestUser;
  order: OrderJson;
}

/** A paid order of one unit assigned to a verified driver and in transit. */
export async function orderInTransit(
  t: TestApp,
  parties: Partial<Pick<DeliveryScene, 'buyer' | 'seller' | 'driver'>> = {},
  product: ProductOverrides = {},
  pay: (buyer: TestUser, body: Record<string, unknown>) => Promise<OrderJson[]> = (buyer, body) =>
    buy(t, buyer, body),
): Promise<DeliveryScene> {
  const buyer = parties.buyer ?? (await signedInAs(t, 'buyer'));
  const seller = parties.seller ?? (await signedInAs(t, 'seller'));
  const driver = parties.driver ?? (await verifiedDriver(t));
  const address = await primaryAddressOf(t, buyer.id);
  await primaryAddressOf(t, seller.id);
  const made = await createProduct(t, seller.id, product);
  const [order] = await pay(buyer, {
    items: [{ productId: made.id, quantity: 1 }],
    isPickup: false,
    deliveryAddressId: address.id,
  });
  if (!order) throw new Error('no order');
  const accepted = await as(t, driver, { method: 'POST', url: `/api/orders/${order.id}/assign` });
  if (accepted.statusCode !== 200) throw new Error(`accept failed: ${accepted.statusCode} ${accepted.body}`);
  const moved = await moveOrder(t, driver, order.id, 'in-transit');
  if (moved.statusCode !== 200) throw new Error(`in-transit failed: ${moved.statusCode} ${moved.body}`);
  return { buyer, seller, driver, order };
}

/** The user's primary address, made the first time. */
async function primaryAddressOf(t: TestApp, userId: string): Promise<{ id: string }> {
  const [found] = await t.database.db
    .select({ id: addresses.id })
    .from(addresses)
    .where(and(eq(addresses.userId, userId), eq(addresses.isPrimary, true)));
  return found ?? createAddress(t, userId);
}

/**
 * The scene's marketplace asks no proof at Mark Delivered (docs/rules/deliveries.md, Deliveries), so
 * tests about what follows a delivery (payouts, mail, the ledger) mark it delivered in one step.
 * Proof itself is tested in src/server/modules/orders/deliver-order.test.ts.
 */
export async function turnDeliveryProofOff(t: TestApp): Promise<void> {
  const off = { standardPhoto: false, standardCode: false, trailerPhoto: false, trailerCode: false };
  await t.database.db
    .insert(deliveryProofSettings)
    .values({ id: 1, ...off })
    .onConflictDoUpdate({ target: deliveryProofSettings.id, set: off });
}

/** A status step through the route; Mark Delivered with the proof settings turned off first. */
export async function moveOrder(t: TestApp, user: TestUser, orderId: string, status: string) {
  if (status === 'delivered') await turnDeliveryProofOff(t);
  return as(t, user, { method: 'PATCH', url: `/api/orders/${orderId}/status`, payload: { status } });
}

export async function payoutsOf(t: TestApp, orderId: string) {
  const rows = await t.database.db.select().from(payouts).where(eq(payouts.orderId, orderId));
  return Object.fromEntries(rows.map((row) => [row.kind, row]));
}

export async function ledgerOf(t: TestApp, orderId: string) {
  return t.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.orderId, orderId));
}
