// zod/mini: every signed-in page reads its events, and building classic schemas is no part of
// showing a page (docs/decisions/0014-first-load.md).
import * as z from 'zod/mini';
import { orderStatusSchema } from './order-status';

/**
 * Live updates (docs/rules/live-updates.md, Live updates): what `GET /api/events` sends a signed-in
 * user. An event names what changed, never what it says: the browser reads the subject again
 * through the usual calls, which apply the usual access rules.
 */

/** A comment line goes out this often so proxies and the browser know the stream is alive. */
export const LIVE_HEARTBEAT_MS = 25_000;
/** How long a browser waits before it reconnects (the `retry:` field). */
export const LIVE_RETRY_MS = 3_000;
/** Events are kept this long for a browser that reconnects with `Last-Event-ID`. */
export const LIVE_REPLAY_WINDOW_MS = 60 * 60 * 1000;
/** At most this many missed events are sent again on a reconnect; the rest the polls catch up. */
export const LIVE_REPLAY_LIMIT = 200;

export const liveEventSchema = z.discriminatedUnion('type', [
  /** An order the user is a party of was placed, or changed status (cancelled included). */
  z.object({
    type: z.literal('order.changed'),
    orderId: z.string(),
    orderNumber: z.string(),
    status: orderStatusSchema,
    /**
     * The status it left: null when it was placed; `assigned` to `pending` is a driver handing it
     * back (`isHandBack` in src/domain/order-status.ts), not a new order.
     */
    from: z.nullable(orderStatusSchema),
    /** Who changed it: the browser does not tell people about their own changes. */
    actorId: z.nullable(z.string()),
    /**
     * Its buyer and seller: the toast's View opens the order where the user is its party. Absent
     * from events stored before they were added; those toasts have no View.
     */
    buyerId: z.optional(z.string()),
    sellerId: z.optional(z.string()),
  }),
  /** A new message in an order's conversation. */
  z.object({
    type: z.literal('order.message'),
    orderId: z.string(),
    orderNumber: z.string(),
    senderId: z.string(),
    senderName: z.string(),
  }),
  /** A new message in a buyer's conversation with a seller about a product. */
  z.object({
    type: z.literal('product.message'),
    productId: z.string(),
    productName: z.string(),
    buyerId: z.string(),
    sellerId: z.string(),
    senderId: z.string(),
    senderName: z.string(),
  }),
  /** The assigned driver set or changed the expected arrival of an order the user is a party of. */
  z.object({
    type: z.literal('order.arrival'),
    orderId: z.string(),
    orderNumber: z.string(),
    /** Only the buyer is told in a toast; the others' screens read the order again. */
    buyerId: z.string(),
    /** ISO time of the expected arrival. */
    estimatedDeliveryTime: z.string(),
  }),
  /** An admin changed the user's own account (a role given or taken, suspended): read it again. */
  z.object({
    type: z.literal('account.changed'),
    userId: z.string(),
  }),
  /** For drivers who may take it: an order became available (isNew) or stopped being so. */
  z.object({
    type: z.literal('offers.changed'),
    orderId: z.string(),
    orderNumber: z.string(),
    isNew: z.boolean(),
  }),
]);
export type LiveEvent = z.infer<typeof liveEventSchema>;

/** The `Last-Event-ID` a reconnecting browser sends: the id of the last event it received. */
export const lastEventIdSchema = z.string().check(z.regex(/^\d{1,15}$/));

/**
 * GET /api/events?since=: the page's live cursor (the newest event id when the page first read
 * who is signed in). The stream's first connection starts with what the user may receive after
 * it, as a reconnect does after `Last-Event-ID` (docs/rules/live-updates.md, Live updates).
 */
export const eventsQuerySchema = z.object({
  since: z.optional(
    z
      .string({ error: 'since must be an event id' })
      .check(z.regex(/^\d{1,15}$/, { error: 'since must be an event id' })),
  ),
});

/** Names shown in an event are cut to this length (the whole event must stay small). */
export const LIVE_NAME_MAX_LENGTH = 80;

export function shortName(name: string): string {
  return name.length > LIVE_NAME_MAX_LENGTH ? `${name.slice(0, LIVE_NAME_MAX_LENGTH - 1)}…` : name;
}
