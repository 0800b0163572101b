import crypto from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import {
  addresses,
  driverDeclines,
  emailPreferences,
  orders,
  pushSubscriptions,
  users,
} from '../../db/schema';
import { canReceiveLiveEvent, isOfferedTo, type LiveEventAudience } from '../../platform/policy';
import { createAddress } from '../../testing/commerce';
import { rolledBack } from '../../testing/rolled-back';
import { createTestApp, createUser, type TestApp } from '../../testing/test-app';
import { assignDriverIfOffered } from '../orders/orders.queries';
import { listDriversToTellOfOffer } from '../notifications/offer-drivers';
import { canCarryTrailerOrders } from '../../../domain/deliveries';
import { ORDER_STATUSES } from '../../../domain/order-status';
import type { Role } from '../../../domain/roles';
import { listAvailableOrders } from './deliveries.queries';

/**
 * The offer rule is written twice where both forms must exist (docs/rules/deliveries.md, Deliveries,
 * Offered orders): in TypeScript, `isOfferedTo` in src/server/platform/policy.ts (accept and decline
 * decide by it, and whom an offer's mail and push reach), and in SQL, `offeredSql` in
 * src/server/db/sql-offers.ts (the list of offers is filtered and paged by it, and accepting writes
 * by it). Random drivers and orders are put in the database, and for every driver and order both
 * forms must give the same answer: what the driver's list shows, which orders their accept takes,
 * and whether they are told of the order's offer by mail or push.
 */

const NOW = new Date('2026-11-18T18:00:00.000Z');
const MILES_PER_DEGREE_LATITUDE = 69.09;

let t: TestApp;
let buyerId: string;
let sellerId: string;
let pickupAddressId: string;
/** The seller's pickup address; drivers live due north of it. */
let pickupAt: { latitude: number; longitude: number };

beforeAll(async () => {
  t = await createTestApp({ now: () => NOW });
  buyerId = (await createUser(t, { roles: ['buyer'] })).id;
  sellerId = (await createUser(t, { roles: ['buyer', 'seller'], role: 'seller' })).id;
  const pickup = await createAddress(t, sellerId);
  pickupAddressId = pickup.id;
  pickupAt = { latitude: Number(pickup.latitude), longitude: Number(pickup.longitude) };
});
afterAll(async () => {
  await t.close();
});

/**
 * Mostly `usual`, sometimes one of `others`: so that in most runs some orders are offered and some
 * drivers are told, besides those that are not.
 */
const mostly = <T>(usual: T, others: readonly T[]) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant(usual) },
    { weight: 1, arbitrary: fc.constantFrom(...others) },
  );

const image = (kind: string) => mostly<string | null>(`/objects/uploads/${kind}`, [null]);

/**
 * A user who may or may not be a driver: roles, the documents of verification and the admin's
 * approval, a trailer image (an empty path is none), suspended or not, where their primary address
 * is from the pickup (none, one without coordinates), and how they hear of offers: offer mail on,
 * off or never set, a device for push or not.
 */
const driverArbitrary = fc.record({
  seller: fc.boolean(),
  driver: mostly(true, [false]),
  admin: fc.boolean(),
  isVerified: mostly(true, [false]),
  vehicleImageUrl: image('vehicle'),
  licenseImageUrl: image('license'),
  trailerImageUrl: fc.constantFrom(null, '', '/objects/uploads/trailer'),
  suspended: mostly(false, [true]),
  /** Miles north of the pickup; null: no primary address; 'unplaced': one without coordinates. */
  home: mostly<number | null | 'unplaced'>(5, [45, 55, 200, null, 'unplaced']),
  offerMail: mostly<boolean | null>(true, [false, null]),
  hasDevice: fc.boolean(),
});
type DriverSpec = typeof driverArbitrary extends fc.Arbitrary<infer T> ? T : never;

/**
 * An order in any status, with or without a driver (one of the generated users), fulfilled by
 * pickup, by the seller or by a driver, needing a trailer or not, with a pickup address or not.
 */
const orderArbitrary = fc.record({
  status: mostly(
    'pending',
    ORDER_STATUSES.filter((status) => status !== 'pending'),
  ),
  driver: mostly<number | null>(null, [0, 1, 2, 3]),
  isPickup: mostly(false, [true]),
  sellerDelivery: mostly(false, [true]),
  requiresTrailer: fc.boolean(),
  hasPickup: mostly(true, [false]),
});
type OrderSpec = typeof orderArbitrary extends fc.Arbitrary<infer T> ? T : never;

/** Drivers, orders, and which driver declined (or handed back: the same record) which order. */
const sceneArbitrary = fc.record({
  drivers: fc.array(driverArbitrary, { minLength: 1, maxLength: 4 }),
  orders: fc.array(orderArbitrary, { minLength: 1, maxLength: 6 }),
  declines: fc.array(fc.tuple(fc.nat(3), fc.nat(5)), { maxLength: 5 }),
});
type Scene = typeof sceneArbitrary extends fc.Arbitrary<infer T> ? T : never;

function rolesOf(spec: DriverSpec): Role[] {
  const roles: Role[] = ['buyer'];
  if (spec.seller) roles.push('seller');
  if (spec.driver) roles.push('driver');
  if (spec.admin) roles.push('admin');
  return roles;
}

/** Puts the scene in the database: the users, their addresses and switches, the orders, the declines. */
async function insertScene(tx: Db, scene: Scene) {
  const driverRows = await tx
    .insert(users)
    .values(
      scene.drivers.map((spec) => {
        const roles = rolesOf(spec);
        return {
          email: `driver-${crypto.randomUUID()}@example.com`,
          firstName: 'Dee',
          roles,
          role: roles[roles.length - 1] ?? 'buyer',
          isVerified: spec.isVerified,
          vehicleImageUrl: spec.vehicleImageUrl,
          licenseImageUrl: spec.licenseImageUrl,
          trailerImageUrl: spec.trailerImageUrl,
          suspendedAt: spec.suspended ? NOW : null,
        };
      }),
    )
    .returning();
  const drivers = driverRows.map((row, index) => ({ row, spec: scene.drivers[index] as DriverSpec }));
  const homes = drivers.flatMap(({ row, spec }) => {
    if (spec.home === null) return [];
    const latitude =
      spec.home === 'unplaced' ? null : pickupAt.latitude + spec.home / MILES_PER_DEGREE_LATITUDE;
    return [
      {
        userId: row.id,
        addressLine1: '1 Home St',
        city: 'Omaha',
        state: 'NE',
        zipCode: '68102',
        latitude: latitude === null ? null : latitude.toFixed(7),
        longitude: latitude === null ? null : pickupAt.longitude.toFixed(7),
        isPrimary: true,
      },
    ];
  });
  if (homes.length > 0) await tx.insert(addresses).values(homes);
  const mailSwitches = drivers.flatMap(({ row, spec }) =>
    spec.offerMail === null ? [] : [{ userId: row.id, offerAlerts: spec.offerMail }],
  );
  if (mailSwitches.length > 0) await tx.insert(emailPreferences).values(mailSwitches);
  const devices = drivers.flatMap(({ row, spec }) =>
    spec.hasDevice
      ? [
          {
            userId: row.id,
            endpoint: `https://push.example/${crypto.randomUUID()}`,
            p256dh: 'BPublicKeyOfTheTestDevice',
            auth: 'AuthSecretOfTheDevice',
          },
        ]
      : [],
  );
  if (devices.length > 0) await tx.insert(pushSubscriptions).values(devices);

  const orderRows = await tx
    .insert(orders)
    .values(
      scene.orders.map((spec: OrderSpec) => ({
        buyerId,
        sellerId,
        driverId: spec.driver === null ? null : (driverRows[spec.driver % driverRows.length]?.id ?? null),
        orderNumber: `ORD-${crypto.randomBytes(5).toString('hex').toUpperCase()}`,
        status: spec.status,
        isPickup: spec.isPickup,
        sellerDelivery: spec.sellerDelivery,
        requiresTrailer: spec.requiresTrailer,
        // The shares add up, as the table requires: seller 90 + driver 8 + platform 12 = 110.
        productSubtotal: '100.00',
        deliveryFee: '10.00',
        total: '110.00',
        deliveryAddress: '2 Buyer St',
        pickupAddressId: spec.hasPickup ? pickupAddressId : null,
        sellerEarnings: '90.00',
        driverEarnings: '8.00',
        purchasePlatformFee: '10.00',
        deliveryPlatformFee: '2.00',
        platformFee: '12.00',
      })),
    )
    .returning();
  const declines = new Map<string, { driverId: string; orderId: string }>();
  for (const [driver, order] of scene.declines) {
    const driverId = driverRows[driver % driverRows.length]?.id ?? '';
    const orderId = orderRows[order % orderRows.length]?.id ?? '';
    declines.set(`${driverId}/${orderId}`, { driverId, orderId });
  }
  if (declines.size > 0)
    await tx
      .insert(driverDeclines)
      .values([...declines.values()].map((pair) => ({ ...pair, createdAt: NOW })));
  return {
    drivers,
    orders: orderRows,
    hasDeclined: (driverId: string, orderId: string) => declines.has(`${driverId}/${orderId}`),
  };
}

const idsOf = (rows: readonly { id: string }[]) => rows.map((row) => row.id).sort();

describe('the offer rule: SQL and TypeScript agree', () => {
  it("lists and lets accept exactly the orders isOfferedTo offers, the list without the driver's declines", async () => {
    await fc.assert(
      fc.asyncProperty(sceneArbitrary, async (scene) => {
        await rolledBack(t.database.db, async (tx) => {
          const { drivers, orders: placed, hasDeclined } = await insertScene(tx, scene);
          for (const { row: driver } of drivers) {
            const offered = placed.filter((order) => isOfferedTo(driver, order));

            const listed = await listAvailableOrders(tx, {
              driverId: driver.id,
              hasTrailer: canCarryTrailerOrders(driver),
              origin: null,
              maxDistance: undefined,
              limit: 100,
              offset: 0,
            });
            expect(listed.map((row) => row.order.id).sort(), 'the list of offers').toEqual(
              idsOf(offered.filter((order) => !hasDeclined(driver.id, order.id))),
            );

            // Each order accepted on its own (a driver who declined may still accept), then undone.
            const accepted = await rolledBack(tx, async (attempt) => {
              const taken: { id: string }[] = [];
              for (const order of placed) {
                const hasWon = await assignDriverIfOffered(attempt, {
                  orderId: order.id,
                  driverId: driver.id,
                  hasTrailer: canCarryTrailerOrders(driver),
                  now: NOW,
                });
                if (hasWon) taken.push(order);
              }
              return taken;
            });
            expect(idsOf(accepted), 'the orders accepting takes').toEqual(idsOf(offered));
          }
        });
      }),
      { numRuns: 40 },
    );
  });

  it('tells of an offer, by mail and by push, the drivers near it to whom isOfferedTo offers it now', async () => {
    await fc.assert(
      fc.asyncProperty(sceneArbitrary, async (scene) => {
        await rolledBack(t.database.db, async (tx) => {
          const { drivers, orders: placed, hasDeclined } = await insertScene(tx, scene);
          for (const order of placed) {
            // The offer's event as it was made when the order was placed; the order as it is now.
            const event: LiveEventAudience = {
              audience: [],
              forDrivers: true,
              trailerOnly: order.requiresTrailer,
            };
            const told = await listDriversToTellOfOffer(tx, event, order);
            const expected = drivers.filter(
              ({ row, spec }) =>
                spec.driver &&
                !spec.suspended &&
                typeof spec.home === 'number' &&
                spec.home <= 50 &&
                order.pickupAddressId !== null &&
                !hasDeclined(row.id, order.id) &&
                (spec.offerMail === true || spec.hasDevice) &&
                canReceiveLiveEvent(row, event) &&
                isOfferedTo(row, order),
            );
            expect(
              told
                .map((driver) => ({
                  id: driver.id,
                  wantsOfferMail: driver.wantsOfferMail,
                  hasDevice: driver.hasDevice,
                }))
                .sort((a, b) => a.id.localeCompare(b.id)),
            ).toEqual(
              expected
                .map(({ row, spec }) => ({
                  id: row.id,
                  wantsOfferMail: spec.offerMail === true,
                  hasDevice: spec.hasDevice,
                }))
                .sort((a, b) => a.id.localeCompare(b.id)),
            );
          }
        });
      }),
      { numRuns: 40 },
    );
  });
});
