import type { Db } from '../../db/client';
import { conflict, forbidden, notFound } from '../../platform/errors';
import { canVerifyDriver, hasRole } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import { DRIVER_IMAGES_MISSING, type AdminDriver, type DriverDecision } from '../../../domain/admin';
import { findLatestAdminAction, recordAdminAction } from '../audit/audit.service';
import { DRIVER_DECISION_ACTIONS, toAdminDriver } from './admin-views';
import { findUserForUpdate, setUserVerified } from '../users/user-records';

export const DRIVER_NOT_FOUND = 'Driver not found';

/**
 * PATCH /api/admin/drivers/{id}/verify (docs/product-rules.md, Admin): Approve sets isVerified, and
 * needs both the vehicle and the license image (409 otherwise); Reject (a driver not verified) and
 * Revoke (a verified one) clear it. One transaction locks the driver's row, changes it and records
 * the decision in the audit trail. Repeating a decision that changes nothing records nothing.
 */
export async function verifyDriver(
  db: Db,
  actor: Actor,
  driverId: string,
  isVerified: boolean,
  now: Date,
): Promise<AdminDriver> {
  if (!canVerifyDriver(actor, driverId)) throw forbidden('Admins cannot verify themselves');
  const target = { type: 'user' as const, id: driverId };
  const updated = await db.transaction(async (tx) => {
    const driver = await findUserForUpdate(tx, driverId);
    if (!driver || !hasRole(driver, 'driver')) throw notFound(DRIVER_NOT_FOUND);
    if (isVerified && (!driver.vehicleImageUrl || !driver.licenseImageUrl))
      throw conflict(DRIVER_IMAGES_MISSING);
    const decision: DriverDecision = isVerified ? 'approved' : driver.isVerified ? 'revoked' : 'rejected';
    const last = await findLatestAdminAction(tx, target, DRIVER_DECISION_ACTIONS);
    const changesNothing =
      driver.isVerified === isVerified && (isVerified || last?.action === 'driver.rejected');
    if (!changesNothing) {
      await setUserVerified(tx, driverId, isVerified, now);
      await recordAdminAction(tx, actor, {
        action: `driver.${decision}`,
        target: { ...target, label: driver.email },
        before: { isVerified: driver.isVerified },
        after: { isVerified },
        now,
      });
    }
    return { ...driver, isVerified };
  });
  return toAdminDriver(updated, await findLatestAdminAction(db, target, DRIVER_DECISION_ACTIONS));
}
