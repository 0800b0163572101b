import { and, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { builtOnce } from '../../db/built-once';
import type { Db } from '../../db/client';
import { addresses, driverDeclines, emailPreferences, pushSubscriptions, users } from '../../db/schema';
import { haversineMilesSql, pointOf } from '../../db/sql-geo';

/**
 * Drivers near an order's pickup who may hear of its offer at all, for the offer mail and the offer
 * push alike (docs/decisions/0019-reaching-people.md): holding the driver role, not suspended, whose
 * primary address is within `maxMiles` of the pickup, who did not decline the order (or hand it
 * back), and who turned on offer mail (`wantsOfferMail`) or have a device for push (`hasDevice`).
 * With what the offer rules need of them; whether the order is offered to them is the caller's
 * question (src/server/modules/notifications/offer-drivers.ts).
 */
export function listDriversNearOffer(
  db: Db,
  order: { id: string; pickupAddressId: string },
  maxMiles: number,
) {
  return driversNearOffer(db).execute({
    orderId: order.id,
    pickupAddressId: order.pickupAddressId,
    maxMiles,
  });
}

/**
 * Built once: every new offer reads it
 * (docs/decisions/0028-checkout-throughput.md, Statements built once).
 */
const driversNearOffer = builtOnce((db) => {
  const home = alias(addresses, 'driver_home');
  const pickup = alias(addresses, 'offer_pickup');
  const distance = haversineMilesSql(pointOf(home), pointOf(pickup));
  const wantsOfferMail = sql<boolean>`coalesce(${emailPreferences.offerAlerts}, false)`;
  const hasDevice = sql<boolean>`exists (select 1 from ${pushSubscriptions} where ${pushSubscriptions.userId} = ${users.id})`;
  return db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      roles: users.roles,
      isVerified: users.isVerified,
      vehicleImageUrl: users.vehicleImageUrl,
      licenseImageUrl: users.licenseImageUrl,
      trailerImageUrl: users.trailerImageUrl,
      distance,
      wantsOfferMail,
      hasDevice,
    })
    .from(users)
    .innerJoin(home, and(eq(home.userId, users.id), eq(home.isPrimary, true)))
    .innerJoin(pickup, eq(pickup.id, sql`${sql.placeholder('pickupAddressId')}::uuid`))
    .leftJoin(emailPreferences, eq(emailPreferences.userId, users.id))
    .where(
      and(
        isNull(users.suspendedAt),
        sql`'driver' = any(${users.roles})`,
        sql`${distance} <= ${sql.placeholder('maxMiles')}::float8`,
        sql`(${wantsOfferMail} or ${hasDevice})`,
        sql`not exists (select 1 from ${driverDeclines} where ${driverDeclines.orderId} = ${sql.placeholder('orderId')}::uuid and ${driverDeclines.driverId} = ${users.id})`,
      ),
    )
    .prepare('');
});
