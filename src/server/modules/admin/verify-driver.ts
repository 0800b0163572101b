import type { Db } from '../../db/client';
import { conflict, forbidden, notFound } from '../../platform/errors';
import { canVerifyDriver, hasRole } from '../../platform/policy';
import type { Actor } from '../../platform/sessions';
import { DRIVER_IMAGES_MISSING, type AdminDriver, type DriverDecision } from '../../../domain/admin';
import { findLatestAdminAction, recordAdminAction } from '../audit/audit.service';
import { DRIVER_DECISION_ACTIONS, toAdminDriver } from './admin-views';
import { findUserForUpdate, setUserVerified } from '../users/user-records';
import { queueMail } from '../notifications/mail-layout';

export const DRIVER_NOT_FOUND = 'Driver not found';

/** What the driver is told of the decision (docs/decisions/0019-reaching-people.md, Mail). */
function driverDecisionMail(decision: DriverDecision): { subject: string; paragraphs: string[] } {
  switch (decision) {
    case 'approved':
      return {
        subject: 'You are verified to deliver',
        paragraphs: [
          'An admin checked your vehicle and license images and approved your driver account. Available orders now show on your driver dashboard.',
        ],
      };
    case 'rejected':
      return {
        subject: 'Your driver verification was not approved',
        paragraphs: [
          'An admin could not approve your driver account from the images on file. Please upload clear images of your vehicle and your license; an admin will look again.',
        ],
      };
    case 'revoked':
      return {
        subject: 'Your driver verification was withdrawn',
        paragraphs: [
          'An admin withdrew your driver verification, so orders are no longer offered to you. Contact support if you think this is a mistake.',
        ],
      };
  }
}

/**
 * PATCH /api/admin/drivers/{id}/verify (docs/rules/known-differences.md, Admin): Approve sets isVerified, and
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
  siteUrl: string,
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
      await queueMail(tx, {
        kind: `driver_${decision}`,
        userId: driverId,
        content: {
          to: driver.email,
          greetingName: driver.firstName,
          ...driverDecisionMail(decision),
          action: { label: 'Open your driver dashboard', url: `${siteUrl}/driver/dashboard` },
        },
      });
    }
    return { ...driver, isVerified, documentsChangedAt: isVerified ? null : driver.documentsChangedAt };
  });
  return toAdminDriver(updated, await findLatestAdminAction(db, target, DRIVER_DECISION_ACTIONS));
}
