import crypto from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { addresses, offerPlaces, orders } from '../../db/schema';
import { offeredSql } from '../../db/sql-offers';
import { createTestApp, createUser, TEST_DB_KIND, type TestApp } from '../../testing/test-app';
import { untilSomeoneWaitsForALock } from '../../testing/lock-wait';
import { deleteAddressOfUser } from '../addresses/addresses.queries';

/**
 * The offers' kept places (docs/decisions/0030-ten-times-the-data.md, Offers by their own place) when
 * an order's offer and its pickup's place change at once, in two transactions: whichever commits
 * last, the kept place is the place of every offer's pickup, and no order that is no offer keeps one.
 * `offers-in-rings.test.ts` checks the same changes one after the other, through the driver's pages.
 */

let t: TestApp;
let buyerId: string;
let sellerId: string;
let driverId: string;

beforeAll(async () => {
  t = await createTestApp();
  buyerId = (await createUser(t, { roles: ['buyer'] })).id;
  sellerId = (await createUser(t, { roles: ['buyer', 'seller'], role: 'seller' })).id;
  driverId = (await createUser(t, { roles: ['buyer', 'driver'], role: 'driver' })).id;
});
afterAll(async () => {
  await t.close();
});

const HERE = { latitude: '41.8781000', longitude: '-87.6298000' };
const THERE = { latitude: '41.9000000', longitude: '-87.7000000' };

/** A seller's pickup address at HERE. */
async function pickupAtHere() {
  const [pickup] = await t.database.db
    .insert(addresses)
    .values({
      userId: sellerId,
      addressLine1: '1 Pickup St',
      city: 'Chicago',
      state: 'IL',
      zipCode: '60601',
      ...HERE,
    })
    .returning({ id: addresses.id });
  if (!pickup) throw new Error('no address');
  return pickup.id;
}

/** An order picked up at `addressId`, offered to drivers or already taken. */
async function placeOrder(db: Db, addressId: string, taken: boolean) {
  const [order] = await db
    .insert(orders)
    .values({
      buyerId,
      sellerId,
      orderNumber: `ORD-${crypto.randomBytes(5).toString('hex').toUpperCase()}`,
      status: taken ? 'assigned' : 'pending',
      driverId: taken ? driverId : null,
      productSubtotal: '100.00',
      deliveryFee: '10.00',
      total: '110.00',
      deliveryAddress: '2 Buyer St',
      pickupAddressId: addressId,
      sellerEarnings: '90.00',
      driverEarnings: '8.00',
      purchasePlatformFee: '10.00',
      deliveryPlatformFee: '2.00',
      platformFee: '12.00',
    })
    .returning({ id: orders.id });
  if (!order) throw new Error('no order');
  return order.id;
}

/** A seller's pickup at HERE and an order picked up there, offered to drivers or already taken. */
async function offerAtHere(taken: boolean) {
  const addressId = await pickupAtHere();
  return { addressId, orderId: await placeOrder(t.database.db, addressId, taken) };
}

const moveToThere = (db: Db, addressId: string) =>
  db.update(addresses).set(THERE).where(eq(addresses.id, addressId));

/** The kept places and the places of the offers' pickups, recomputed, for one order. */
async function placesOf(orderId: string) {
  const kept = await t.database.db
    .select({ latitude: offerPlaces.latitude, longitude: offerPlaces.longitude })
    .from(offerPlaces)
    .where(eq(offerPlaces.orderId, orderId));
  const recomputed = await t.database.db
    .select({ latitude: addresses.latitude, longitude: addresses.longitude })
    .from(orders)
    .innerJoin(addresses, eq(addresses.id, orders.pickupAddressId))
    .where(and(eq(orders.id, orderId), offeredSql(true), sql`${addresses.latitude} is not null`))
    .orderBy(asc(orders.id));
  return { kept, recomputed };
}

/** The order's kept place is `places` (one place, or none), and is what its order and pickup say now. */
async function expectKeptAt(orderId: string, places: unknown[]) {
  const { kept, recomputed } = await placesOf(orderId);
  expect(kept).toEqual(places);
  expect(kept).toEqual(recomputed);
}

/**
 * Runs `first` in a transaction that stays open until `second`, on another connection, waits for
 * a lock `first` holds; then commits `first` and waits for `second`.
 */
async function whileHeld(
  first: (tx: Db) => Promise<unknown>,
  second: () => Promise<unknown>,
  thenInFirst?: (tx: Db) => Promise<unknown>,
) {
  let running: Promise<unknown> | undefined;
  await t.database.db.transaction(async (tx) => {
    await first(tx);
    // Awaited, so a query builder runs now.
    running = (async () => {
      await second();
    })();
    await untilSomeoneWaitsForALock(t, 'the second change');
    if (thenInFirst) await thenInFirst(tx);
  });
  await running;
}

describe("the offers' kept places, two changes at once", () => {
  it.skipIf(TEST_DB_KIND !== 'postgres')(
    'an order handed back while its pickup moves is kept at the place it moved to',
    async () => {
      const { addressId, orderId } = await offerAtHere(true);
      await whileHeld(
        (tx) => moveToThere(tx, addressId),
        () =>
          t.database.db
            .update(orders)
            .set({ status: 'pending', driverId: null })
            .where(eq(orders.id, orderId)),
      );
      await expectKeptAt(orderId, [THERE]);
    },
  );

  it.skipIf(TEST_DB_KIND !== 'postgres')('an order taken while its pickup moves keeps no place', async () => {
    const { addressId, orderId } = await offerAtHere(false);
    await whileHeld(
      (tx) => tx.update(orders).set({ status: 'assigned', driverId }).where(eq(orders.id, orderId)),
      () => t.database.db.update(addresses).set(THERE).where(eq(addresses.id, addressId)),
    );
    await expectKeptAt(orderId, []);
  });

  it.skipIf(TEST_DB_KIND !== 'postgres')(
    'an order placed while its pickup moves is kept at the place it moved to',
    async () => {
      const addressId = await pickupAtHere();
      let orderId = '';
      await whileHeld(
        (tx) => moveToThere(tx, addressId),
        async () => {
          orderId = await placeOrder(t.database.db, addressId, false);
        },
      );
      await expectKeptAt(orderId, [THERE]);
    },
  );

  it.skipIf(TEST_DB_KIND !== 'postgres')(
    'a pickup moved while an order there is being placed takes the order with it',
    async () => {
      const addressId = await pickupAtHere();
      let orderId = '';
      await whileHeld(
        async (tx) => {
          orderId = await placeOrder(tx, addressId, false);
        },
        () => moveToThere(t.database.db, addressId),
      );
      await expectKeptAt(orderId, [THERE]);
    },
  );

  it.skipIf(TEST_DB_KIND !== 'postgres')(
    'an order moved to another pickup while its old pickup moves is kept at its new pickup',
    async () => {
      const { addressId, orderId } = await offerAtHere(false);
      const otherId = await pickupAtHere();
      await whileHeld(
        (tx) => tx.update(orders).set({ pickupAddressId: otherId }).where(eq(orders.id, orderId)),
        () => moveToThere(t.database.db, addressId),
      );
      await expectKeptAt(orderId, [HERE]);
    },
  );

  it.skipIf(TEST_DB_KIND !== 'postgres')(
    'an order handed back while its pickup address is deleted keeps no place, and nothing deadlocks',
    async () => {
      const { addressId, orderId } = await offerAtHere(true);
      // The driver's transaction holds the order's row first; the seller deletes the address meanwhile;
      // then the driver hands the order back. Had the delete taken the address before the order, each
      // would wait for the other.
      await whileHeld(
        (tx) => tx.update(orders).set({ deliveryNotes: 'Ring twice' }).where(eq(orders.id, orderId)),
        () => t.database.db.transaction((tx) => deleteAddressOfUser(tx, sellerId, addressId)),
        (tx) => tx.update(orders).set({ status: 'pending', driverId: null }).where(eq(orders.id, orderId)),
      );
      const [order] = await t.database.db
        .select({ pickupAddressId: orders.pickupAddressId, status: orders.status })
        .from(orders)
        .where(eq(orders.id, orderId));
      expect(order).toEqual({ pickupAddressId: null, status: 'pending' });
      await expectKeptAt(orderId, []);
    },
  );

  it('an order placed as an offer is kept at its pickup, and an order taken keeps none', async () => {
    const { orderId } = await offerAtHere(false);
    expect((await placesOf(orderId)).kept).toEqual([HERE]);
    await t.database.db.update(orders).set({ status: 'assigned', driverId }).where(eq(orders.id, orderId));
    expect((await placesOf(orderId)).kept).toEqual([]);
  });
});
