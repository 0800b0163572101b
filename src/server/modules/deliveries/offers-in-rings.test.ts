import crypto from 'node:crypto';
import { and, asc, eq, not, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { addresses, driverDeclines, orders } from '../../db/schema';
import { haversineMilesSql, pointOf } from '../../db/sql-geo';
import { offeredSql } from '../../db/sql-offers';
import { rolledBack } from '../../testing/rolled-back';
import { createTestApp, createUser, type TestApp } from '../../testing/test-app';
import { EARTH_RADIUS_MILES, type LatLng } from '../../../domain/geo';
import { listAvailableOrders } from './deliveries.queries';

/**
 * A driver's offers are read ring by ring from their place (docs/decisions/0030-ten-times-the-data.md,
 * A driver's offers in rings). Whatever the places, limit, offset and distance limit, the page must be
 * the one a plain sort of every offer gives: nearest pickup first, then oldest, then id, offers whose
 * pickup has no place after all that have one. Pickups are put on the rings' edges (1, 2, 4, …
 * miles), at the driver's own place, at one place together, far away, and without a place; then moved,
 * deleted, their orders taken, handed back and changed (the offers' kept places, docs/decisions/
 * 0030-ten-times-the-data.md, Offers by their own place, must follow).
 */

const NOW = new Date('2026-12-05T18:00:00.000Z');

let t: TestApp;
let buyerId: string;
let sellerId: string;
let driverId: string;
let otherDriverId: string;

beforeAll(async () => {
  t = await createTestApp({ now: () => NOW });
  buyerId = (await createUser(t, { roles: ['buyer'] })).id;
  sellerId = (await createUser(t, { roles: ['buyer', 'seller'], role: 'seller' })).id;
  driverId = (await createUser(t, { roles: ['buyer', 'driver'], role: 'driver' })).id;
  otherDriverId = (await createUser(t, { roles: ['buyer', 'driver'], role: 'driver' })).id;
});
afterAll(async () => {
  await t.close();
});

/** The point `miles` from `from` on the sphere, along `bearing` degrees from north. */
function pointAt(from: LatLng, miles: number, bearing: number): LatLng {
  const δ = miles / EARTH_RADIUS_MILES;
  const θ = (bearing * Math.PI) / 180;
  const φ1 = (from.latitude * Math.PI) / 180;
  const λ1 = (from.longitude * Math.PI) / 180;
  const φ2 = Math.asin(Math.sin(φ1) * Math.cos(δ) + Math.cos(φ1) * Math.sin(δ) * Math.cos(θ));
  const λ2 =
    λ1 + Math.atan2(Math.sin(θ) * Math.sin(δ) * Math.cos(φ1), Math.cos(δ) - Math.sin(φ1) * Math.sin(φ2));
  const longitude = (((((λ2 * 180) / Math.PI + 540) % 360) + 360) % 360) - 180;
  return { latitude: (φ2 * 180) / Math.PI, longitude };
}

/** Distances on and either side of the rings' edges, at the driver's place, and far away. */
const milesArbitrary = fc.oneof(
  fc.constantFrom(0, 0.5, 1, 2, 4, 8, 16, 30, 500, 3000, 12_000),
  fc.constantFrom(1, 2, 4, 8, 16).chain((edge) => fc.constantFrom(edge - 1e-4, edge + 1e-4)),
  fc.double({ min: 0, max: 40, noNaN: true }),
);

const pickupArbitrary = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ miles: milesArbitrary, bearing: fc.double({ min: 0, max: 359, noNaN: true }) }),
  },
  { weight: 1, arbitrary: fc.constant('unplaced' as const) },
);

const sceneArbitrary = fc.record({
  // A driver's place is read from an address: seven decimals.
  origin: fc.record({
    latitude: fc.integer({ min: -700_000_000, max: 700_000_000 }).map((n) => n / 1e7),
    longitude: fc.integer({ min: -1_790_000_000, max: 1_790_000_000 }).map((n) => n / 1e7),
  }),
  pickups: fc.array(pickupArbitrary, { minLength: 1, maxLength: 6 }),
  orders: fc.array(
    fc.record({
      /** Which pickup (of `pickups`), or none. */
      pickup: fc.option(fc.nat(5), { freq: 6 }),
      /** Minutes before now; equal ones tie on the time. */
      age: fc.nat(3),
      declined: fc.boolean(),
      requiresTrailer: fc.boolean(),
    }),
    { minLength: 1, maxLength: 12 },
  ),
  /**
   * What happens after the orders are placed, in turn: a pickup address moved (or its place taken
   * away, or given one), deleted (its orders keep no pickup), an order taken by a driver, handed back,
   * or changed to need a trailer or not. The offers' kept places must follow every one.
   */
  changes: fc.array(
    fc.oneof(
      fc.record({ kind: fc.constant('move' as const), pickup: fc.nat(5), to: pickupArbitrary }),
      fc.record({ kind: fc.constant('delete' as const), pickup: fc.nat(5) }),
      fc.record({ kind: fc.constant('take' as const), order: fc.nat(11) }),
      fc.record({ kind: fc.constant('hand back' as const), order: fc.nat(11) }),
      fc.record({ kind: fc.constant('trailer' as const), order: fc.nat(11), requiresTrailer: fc.boolean() }),
    ),
    { maxLength: 4 },
  ),
  hasTrailer: fc.boolean(),
  maxDistance: fc.constantFrom(undefined, 1, 2, 3.5, 25, 400),
  limit: fc.integer({ min: 1, max: 7 }),
  offset: fc.nat(12),
});
type Scene = typeof sceneArbitrary extends fc.Arbitrary<infer T> ? T : never;

type Pickup = Scene['pickups'][number];

/** Where a pickup is, as an address's columns: seven decimals, or none. */
function placeOf(scene: Scene, pickup: Pickup) {
  const place = pickup === 'unplaced' ? null : pointAt(scene.origin, pickup.miles, pickup.bearing);
  return {
    latitude: place === null ? null : place.latitude.toFixed(7),
    longitude: place === null ? null : place.longitude.toFixed(7),
  };
}

async function insertScene(tx: Db, scene: Scene) {
  const placed = await tx
    .insert(addresses)
    .values(
      scene.pickups.map((pickup) => {
        return {
          userId: sellerId,
          addressLine1: '1 Pickup St',
          city: 'Springfield',
          state: 'IL',
          zipCode: '62701',
          ...placeOf(scene, pickup),
          isPrimary: false,
        };
      }),
    )
    .returning({ id: addresses.id });
  const rows = await tx
    .insert(orders)
    .values(
      scene.orders.map((spec) => ({
        buyerId,
        sellerId,
        orderNumber: `ORD-${crypto.randomBytes(5).toString('hex').toUpperCase()}`,
        status: 'pending',
        isPickup: false,
        sellerDelivery: false,
        requiresTrailer: spec.requiresTrailer,
        productSubtotal: '100.00',
        deliveryFee: '10.00',
        total: '110.00',
        deliveryAddress: '2 Buyer St',
        pickupAddressId: spec.pickup === null ? null : (placed[spec.pickup % placed.length]?.id ?? null),
        sellerEarnings: '90.00',
        driverEarnings: '8.00',
        purchasePlatformFee: '10.00',
        deliveryPlatformFee: '2.00',
        platformFee: '12.00',
        createdAt: new Date(NOW.getTime() - spec.age * 60_000),
      })),
    )
    .returning({ id: orders.id });
  const declined = rows.filter((_, i) => scene.orders[i]?.declined);
  if (declined.length > 0)
    await tx
      .insert(driverDeclines)
      .values(declined.map((row) => ({ driverId, orderId: row.id, createdAt: NOW })));
  for (const change of scene.changes) {
    if (change.kind === 'move' || change.kind === 'delete') {
      const address = placed[change.pickup % placed.length];
      if (address === undefined) continue;
      if (change.kind === 'move')
        await tx.update(addresses).set(placeOf(scene, change.to)).where(eq(addresses.id, address.id));
      else await tx.delete(addresses).where(eq(addresses.id, address.id));
      continue;
    }
    const order = rows[change.order % rows.length];
    if (order === undefined) continue;
    await tx
      .update(orders)
      .set(
        change.kind === 'take'
          ? { status: 'assigned', driverId: otherDriverId }
          : change.kind === 'hand back'
            ? { status: 'pending', driverId: null }
            : { requiresTrailer: change.requiresTrailer },
      )
      .where(eq(orders.id, order.id));
  }
}

const pickup = alias(addresses, 'pickup');

/** The page as a plain sort of every offer gives it. */
async function sortedPage(tx: Db, scene: Scene) {
  const distance = haversineMilesSql(
    { latitude: sql`${scene.origin.latitude}::float8`, longitude: sql`${scene.origin.longitude}::float8` },
    pointOf(pickup),
  );
  const declined = tx
    .select({ one: sql`1` })
    .from(driverDeclines)
    .where(and(eq(driverDeclines.orderId, orders.id), eq(driverDeclines.driverId, driverId)));
  return tx
    .select({ id: orders.id, pickupDistance: sql<number | null>`${distance}` })
    .from(orders)
    .leftJoin(pickup, eq(pickup.id, orders.pickupAddressId))
    .where(
      and(
        offeredSql(scene.hasTrailer),
        not(sql`exists ${declined}`),
        scene.maxDistance === undefined ? undefined : sql`${distance} <= ${scene.maxDistance}::float8`,
      ),
    )
    .orderBy(sql`${distance} asc nulls last`, asc(orders.createdAt), asc(orders.id))
    .limit(scene.limit)
    .offset(scene.offset);
}

describe("a driver's offers read in rings", () => {
  it('give the page a plain sort of every offer gives, for any places, window and distance limit', async () => {
    await fc.assert(
      fc.asyncProperty(sceneArbitrary, async (scene) => {
        await rolledBack(t.database.db, async (tx) => {
          await insertScene(tx, scene);
          const listed = await listAvailableOrders(tx, {
            driverId,
            hasTrailer: scene.hasTrailer,
            origin: scene.origin,
            maxDistance: scene.maxDistance,
            limit: scene.limit,
            offset: scene.offset,
          });
          const expected = await sortedPage(tx, scene);
          expect(listed.map((row) => [row.order.id, row.pickupDistance])).toEqual(
            expected.map((row) => [row.id, row.pickupDistance]),
          );
        });
      }),
      { numRuns: 60 },
    );
  });
});
