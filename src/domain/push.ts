import { z } from 'zod';

/**
 * Web Push (docs/decisions/0019-reaching-people.md, Push and the installable app): what a browser
 * sends to subscribe a device, the per-kind switches and quiet hours a user keeps, and what a push
 * message says. Quiet hours are minutes of the day in the marketplace time zone, like every time
 * the marketplace shows (docs/rules/running.md, Dates and times).
 */

/** The kinds of push and who gets them: each is one switch on the profile's Notifications card. */
export const PUSH_KINDS = ['offers', 'newOrders', 'orderStatus', 'arrivalTimes', 'messages'] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

/** The switches' labels, as the profile's Notifications card shows them. */
export const PUSH_KIND_LABELS: Record<PushKind, string> = {
  offers: 'New delivery offers near me',
  newOrders: 'New orders',
  orderStatus: 'Order status changes',
  arrivalTimes: 'Expected arrival times',
  messages: 'Messages',
};

export const vapidPublicKeySchema = z.object({ publicKey: z.string() });

const base64Url = z
  .string()
  .min(16)
  .max(200)
  .regex(/^[A-Za-z0-9_-]+=*$/, 'must be base64url')
  // The same rule with the length inside the pattern, which a generator of examples can follow.
  .meta({ pattern: '^[A-Za-z0-9_-]{16,200}=*$' });

/** PushSubscription.toJSON() as the browser gives it. */
export const pushSubscribeBodySchema = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).max(1000),
  keys: z.object({ p256dh: base64Url, auth: base64Url }),
});
export type PushSubscribeBody = z.infer<typeof pushSubscribeBodySchema>;

export const pushUnsubscribeBodySchema = z.object({ endpoint: z.string().min(1).max(1000) });

export const pushSubscriptionSchema = z.object({
  id: z.string(),
  deviceLabel: z.string(),
  createdAt: z.string(),
});

const minuteOfDay = z.number().int().min(0).max(1439);
export const QUIET_HOURS_BOTH_MESSAGE = 'Quiet hours need both a start and an end';

export const notificationPreferencesSchema = z
  .object({
    offers: z.boolean(),
    newOrders: z.boolean(),
    orderStatus: z.boolean(),
    arrivalTimes: z.boolean(),
    messages: z.boolean(),
    /** Minutes of the day in the marketplace time zone; both null: no quiet hours. */
    quietStartMinute: minuteOfDay.nullable(),
    quietEndMinute: minuteOfDay.nullable(),
  })
  .refine((p) => (p.quietStartMinute === null) === (p.quietEndMinute === null), {
    message: QUIET_HOURS_BOTH_MESSAGE,
    path: ['quietEndMinute'],
  });
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = {
  offers: true,
  newOrders: true,
  orderStatus: true,
  arrivalTimes: true,
  messages: true,
  quietStartMinute: null,
  quietEndMinute: null,
};

/**
 * Whether a minute of the day falls in quiet hours [start, end): a span past midnight (22:00 to
 * 07:00) wraps; start equal to end is no quiet hours.
 */
export function isQuietMinute(minute: number, start: number | null, end: number | null): boolean {
  if (start === null || end === null || start === end) return false;
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

/** What a push message carries to the service worker, which shows it. */
export const pushPayloadSchema = z.object({
  title: z.string(),
  body: z.string(),
  /** The page to open, a path of this app. */
  url: z.string(),
  /** Notifications of one subject replace each other. */
  tag: z.string(),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;
