import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { notificationPreferences, pushSubscriptions } from '../../db/schema';
import { badRequest, notFound } from '../../platform/errors';
import { publicAddressesOf, type ResolveHost } from '../../platform/public-address';
import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  type NotificationPreferences,
  type PushSubscribeBody,
} from '../../../domain/push';

/**
 * A user's push devices and switches (docs/decisions/0019-reaching-people.md, Push and the
 * installable app). A subscription is its user's only: nobody else reads or removes it.
 */

export const PUSH_ENDPOINT_REFUSED = 'A push endpoint must be an https:// URL of a push service';
/** The endpoint's field message when its host is not a public address (docs/decisions/0023-accounts-an-attacker-cannot-bend.md). */
export const PUSH_ENDPOINT_NOT_PUBLIC = 'must be an https:// URL of a public push service';

/**
 * Push services are public: the endpoint must be https and every address its host resolves to
 * public (docs/decisions/0023-accounts-an-attacker-cannot-bend.md, Push only to public addresses), so
 * a subscription can never point the server at this machine, the private network or the cloud's
 * metadata service. PUSH_ALLOW_PRIVATE_HOSTS (local development, the tests' push service) lifts it.
 * Answers whether the endpoint may be used; checked again at each send.
 */
export async function isPushEndpointAllowed(
  endpoint: string,
  options: { allowPrivate: boolean; resolve: ResolveHost },
): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (options.allowPrivate) return url.protocol === 'https:' || url.protocol === 'http:';
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  return (await publicAddressesOf(url.hostname, options.resolve)) !== null;
}

/** A user keeps at most this many devices; subscribing one more forgets the oldest. */
const MAX_DEVICES_PER_USER = 10;

/** "Chrome on Android": enough for a person to tell their devices apart. */
function deviceLabelOf(userAgent: string | undefined): string {
  const ua = userAgent ?? '';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrome\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : 'A browser';
  const system = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad/.test(ua)
      ? 'iOS'
      : /Mac OS X/.test(ua)
        ? 'macOS'
        : /Windows/.test(ua)
          ? 'Windows'
          : /Linux/.test(ua)
            ? 'Linux'
            : undefined;
  return system ? `${browser} on ${system}` : browser;
}

/**
 * Saves this device's subscription for the user. An endpoint is one browser profile: subscribed
 * again (another account signed in on the same device), it now belongs to the latest user.
 */
export async function subscribePush(
  db: Db,
  userId: string,
  body: PushSubscribeBody,
  options: { userAgent: string | undefined; allowPrivate: boolean; resolve: ResolveHost; now: Date },
) {
  if (!(await isPushEndpointAllowed(body.endpoint, options)))
    throw badRequest(PUSH_ENDPOINT_REFUSED, { endpoint: PUSH_ENDPOINT_NOT_PUBLIC });
  const values = {
    userId,
    endpoint: body.endpoint,
    p256dh: body.keys.p256dh,
    auth: body.keys.auth,
    deviceLabel: deviceLabelOf(options.userAgent),
    createdAt: options.now,
  };
  const [row] = await db
    .insert(pushSubscriptions)
    .values(values)
    .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: values })
    .returning();
  if (!row) throw new Error('subscription not saved');
  await db.execute(sql`
    delete from ${pushSubscriptions}
    where ${pushSubscriptions.userId} = ${userId} and ${pushSubscriptions.id} not in (
      select id from ${pushSubscriptions} where ${pushSubscriptions.userId} = ${userId}
      order by ${pushSubscriptions.createdAt} desc, ${pushSubscriptions.id} desc
      limit ${MAX_DEVICES_PER_USER}
    )`);
  return { id: row.id, deviceLabel: row.deviceLabel, createdAt: row.createdAt.toISOString() };
}

/** Removes the user's own subscription of this endpoint; anyone else's is a 404. */
export async function unsubscribePush(db: Db, userId: string, endpoint: string): Promise<void> {
  const removed = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id });
  if (removed.length === 0) throw notFound('No push subscription of yours has this endpoint');
}

/** The push service said the subscription is gone (404 or 410). */
export async function removeSubscriptionById(db: Db, id: string): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
}

export async function getPreferences(db: Db, userId: string): Promise<NotificationPreferences> {
  const [row] = await db
    .select()
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId));
  if (!row) return DEFAULT_NOTIFICATION_PREFERENCES;
  return {
    offers: row.offers,
    newOrders: row.newOrders,
    orderStatus: row.orderStatus,
    arrivalTimes: row.arrivalTimes,
    messages: row.messages,
    quietStartMinute: row.quietStartMinute,
    quietEndMinute: row.quietEndMinute,
  };
}

export async function savePreferences(
  db: Db,
  userId: string,
  preferences: NotificationPreferences,
  now: Date,
): Promise<NotificationPreferences> {
  const values = { ...preferences, updatedAt: now };
  await db
    .insert(notificationPreferences)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: notificationPreferences.userId, set: values });
  return getPreferences(db, userId);
}
