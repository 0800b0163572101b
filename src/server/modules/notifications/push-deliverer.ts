import { eq } from 'drizzle-orm';
import webpush from 'web-push';
import { pushSubscriptions } from '../../db/schema';
import type { AppContext } from '../../platform/context';
import type { DeliveryOutcome, OutboxDeliverer } from '../../platform/outbox';
import { removeSubscriptionById } from './push-subscriptions';
import type { PushOutboxPayload } from './push-reactor';

/** A push service that has not answered by then is tried again later. */
const PUSH_TIMEOUT_MS = 10_000;
/** A message older than a day is of no use: the push service may drop it. */
const PUSH_TTL_SECONDS = 24 * 60 * 60;

/**
 * Sends one push (docs/decisions/0019-reaching-people.md, Push and the installable app): web-push
 * encrypts the message for the device (aes128gcm) and signs the VAPID header; the request goes out
 * with fetch and a timeout. 404 and 410 mean the subscription is gone: it is removed and the row
 * dropped. 429, a 5xx or no answer: tried again. Any other refusal can never succeed: dropped.
 */
export function pushDeliverer(ctx: AppContext): OutboxDeliverer {
  return async (item): Promise<DeliveryOutcome> => {
    const { subscriptionId, message } = item.payload as PushOutboxPayload;
    const [device] = await ctx.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.id, subscriptionId));
    if (!device) return { outcome: 'drop', reason: 'the subscription was removed' };
    // Another account took this device over since the row was queued: the message was not for them.
    if (device.userId !== item.userId)
      return { outcome: 'drop', reason: 'the device now belongs to someone else' };
    const request = webpush.generateRequestDetails(
      { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
      JSON.stringify(message),
      {
        vapidDetails: {
          subject: ctx.config.vapidSubject,
          publicKey: ctx.vapid.publicKey,
          privateKey: ctx.vapid.privateKey,
        },
        TTL: PUSH_TTL_SECONDS,
        urgency: 'normal',
      },
    );
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      // fetch counts the body itself.
      if (name.toLowerCase() !== 'content-length') headers[name] = String(value);
    }
    let response: Response;
    try {
      response = await fetch(request.endpoint, {
        method: request.method,
        headers,
        body: request.body ? new Uint8Array(request.body) : null,
        redirect: 'error',
        signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
      });
    } catch (error) {
      return {
        outcome: 'retry',
        error: `push service unreachable: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
    await response.body?.cancel();
    if (response.ok) return { outcome: 'sent' };
    if (response.status === 404 || response.status === 410) {
      await removeSubscriptionById(ctx.db, device.id);
      return {
        outcome: 'drop',
        reason: `the push service answered ${response.status}: subscription removed`,
      };
    }
    if (response.status === 429 || response.status >= 500)
      return { outcome: 'retry', error: `the push service answered ${response.status}` };
    return { outcome: 'drop', reason: `the push service refused it (${response.status})` };
  };
}
