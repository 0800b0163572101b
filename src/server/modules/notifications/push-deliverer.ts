import { eq } from 'drizzle-orm';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import webpush from 'web-push';
import { pushSubscriptions } from '../../db/schema';
import type { AppContext } from '../../platform/context';
import type { DeliveryOutcome, OutboxDeliverer } from '../../platform/outbox';
import { isPushEndpointAllowed, removeSubscriptionById } from './push-subscriptions';
import { publicAddressesOf, type ResolveHost } from '../../platform/public-address';
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
    // Checked again at each send, on the address the connection uses
    // (docs/decisions/0023-accounts-an-attacker-cannot-bend.md, Push only to public addresses).
    const allowPrivate = ctx.config.pushAllowPrivateHosts;
    if (!(await isPushEndpointAllowed(device.endpoint, { allowPrivate, resolve: ctx.resolveHost })))
      return { outcome: 'drop', reason: 'the push endpoint is not a public address' };
    let response: { status: number; ok: boolean };
    try {
      response = await postPinned(request.endpoint, {
        method: request.method,
        headers,
        body: request.body ? Buffer.from(request.body) : undefined,
        lookup: allowPrivate ? undefined : publicLookup(ctx.resolveHost),
      });
    } catch (error) {
      if (error instanceof NotPublicError) return { outcome: 'drop', reason: error.message };
      return {
        outcome: 'retry',
        error: `push service unreachable: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
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

class NotPublicError extends Error {}

/** A `lookup` for the connection: the name resolved once more, used only when every address is public. */
function publicLookup(resolve: ResolveHost): LookupFunction {
  return (hostname, options, callback) => {
    publicAddressesOf(hostname, resolve).then(
      (addresses) => {
        const first = addresses?.[0];
        if (!addresses || first === undefined) {
          callback(new NotPublicError(`${hostname} does not resolve to public addresses only`), '', 0);
          return;
        }
        const entries = addresses.map((address) => ({ address, family: isIP(address) }));
        if (options.all) callback(null, entries);
        else callback(null, first, isIP(first));
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
}

/** One request with no redirect followed, over the address `lookup` answers; the body is not read. */
function postPinned(
  endpoint: string,
  options: {
    method: string;
    headers: Record<string, string>;
    body: Buffer | undefined;
    lookup?: LookupFunction;
  },
): Promise<{ status: number; ok: boolean }> {
  const url = new URL(endpoint);
  const send = url.protocol === 'http:' ? http.request : https.request;
  return new Promise((resolve, reject) => {
    const request = send(
      url,
      {
        method: options.method,
        headers: options.headers,
        timeout: PUSH_TIMEOUT_MS,
        ...(options.lookup ? { lookup: options.lookup } : {}),
      },
      (response) => {
        response.resume();
        const status = response.statusCode ?? 0;
        resolve({ status, ok: status >= 200 && status < 300 });
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', reject);
    request.end(options.body);
  });
}
