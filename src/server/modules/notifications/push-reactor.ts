import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { notificationPreferences, orders, pushSubscriptions } from '../../db/schema';
import type { AppContext } from '../../platform/context';
import type { OutboxItem } from '../../platform/outbox';
import type { StoredLiveEvent } from '../../platform/live-events';
import { canViewMessageThread, canViewOrder, type OrderParties } from '../../platform/policy';
import type { LiveEvent } from '../../../domain/live-events';
import { formatDateTime, wallClockAt } from '../../../domain/marketplace-time';
import { isHandBack, type OrderStatus } from '../../../domain/order-status';
import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  isQuietMinute,
  type NotificationPreferences,
  type PushKind,
  type PushPayload,
} from '../../../domain/push';
import type { LiveEventReactor } from './dispatch-live-events';
import { listDriversToTellOfOffer } from './offer-drivers';

/**
 * Turns live events into Web Push (docs/decisions/0019-reaching-people.md, Push and the installable
 * app): sellers hear of new orders, buyers of status changes and arrival times, buyers and sellers
 * of a driver handing an order back, every party of a cancellation and of messages, verified
 * drivers near the pickup of new offers (not those who declined it). Never the person who caused it, never
 * anyone the access policy does not let see the order or the thread (read again here, as the order
 * stands now), never a kind the user switched off, nothing in their quiet hours, and never a price.
 */

/** What the outbox's push rows carry: the device by id (gone by then: dropped) and the message. */
export interface PushOutboxPayload {
  subscriptionId: string;
  message: PushPayload;
}

interface Intent {
  userId: string;
  kind: PushKind;
  /** The outbox row's kind (shown to the admin). */
  outboxKind: string;
  message: PushPayload;
}

/** "Order ORD-ABC234 is on the way": what a buyer reads of a status. */
const STATUS_PHRASE: Record<OrderStatus, string> = {
  pending: 'was placed',
  assigned: 'has a driver',
  'in-transit': 'is on the way',
  delivered: 'was delivered',
  ready_for_pickup: 'is ready for pickup',
  completed: 'was picked up',
  cancelled: 'was cancelled',
};

interface OrderRow extends OrderParties {
  id: string;
  orderNumber: string;
  status: string;
  isPickup: boolean;
  sellerDelivery: boolean;
  requiresTrailer: boolean;
  pickupAddressId: string | null;
}

async function loadOrders(tx: Db, ids: readonly string[]): Promise<Map<string, OrderRow>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({
      id: orders.id,
      orderNumber: orders.orderNumber,
      status: orders.status,
      buyerId: orders.buyerId,
      sellerId: orders.sellerId,
      driverId: orders.driverId,
      isPickup: orders.isPickup,
      sellerDelivery: orders.sellerDelivery,
      requiresTrailer: orders.requiresTrailer,
      pickupAddressId: orders.pickupAddressId,
    })
    .from(orders)
    .where(inArray(orders.id, [...new Set(ids)]));
  return new Map(rows.map((row) => [row.id, row]));
}

/** Where an order's party reads it. */
function orderPageOf(userId: string, order: OrderParties): string {
  if (userId === order.buyerId) return '/buyer/orders';
  if (userId === order.sellerId) return '/seller/dashboard';
  return '/driver/dashboard';
}

/** Whom an order's news may reach: named by the event and a party of the order as it is now. */
function orderRecipients(event: StoredLiveEvent, order: OrderRow, candidates: readonly string[]): string[] {
  return candidates.filter((id) => event.audience.includes(id) && canViewOrder({ id, roles: [] }, order));
}

/**
 * The drivers told of a new offer by push: those near it who may take it now
 * (`listDriversToTellOfOffer`, as for offer mail) with a device.
 */
async function driversNear(tx: Db, event: StoredLiveEvent, order: OrderRow): Promise<string[]> {
  return (await listDriversToTellOfOffer(tx, event, order))
    .filter((driver) => driver.hasDevice)
    .map((driver) => driver.id);
}

async function intentsOf(
  tx: Db,
  event: StoredLiveEvent,
  ordersById: Map<string, OrderRow>,
  timeZone: string,
): Promise<Intent[]> {
  const data: LiveEvent = event.data;
  switch (data.type) {
    case 'order.changed': {
      const order = ordersById.get(data.orderId);
      if (!order) return [];
      const placed = data.from === null;
      const handedBack = isHandBack({ fromStatus: data.from, toStatus: data.status });
      // A placed order to its seller; a status change to its buyer; a cancellation to every party
      // (the seller stops preparing it, the driver stops driving to it); a driver's hand back to
      // the buyer and the seller, who wait for another driver (docs/rules/deliveries.md, Deliveries).
      const to =
        data.status === 'cancelled'
          ? [order.buyerId, order.sellerId, order.driverId]
          : handedBack
            ? [order.buyerId, order.sellerId]
            : [placed ? order.sellerId : order.buyerId];
      const others = to.filter((id): id is string => id !== null && id !== data.actorId);
      return orderRecipients(event, order, [...new Set(others)]).map((userId) => ({
        userId,
        kind: placed ? 'newOrders' : 'orderStatus',
        outboxKind: placed ? 'push_new_order' : 'push_order_status',
        message: {
          title: placed ? 'New order' : 'Order update',
          body: `Order ${order.orderNumber} ${handedBack ? 'is waiting for a new driver' : STATUS_PHRASE[data.status]}`,
          url: orderPageOf(userId, order),
          tag: `order-${order.id}`,
        },
      }));
    }
    case 'order.arrival': {
      const order = ordersById.get(data.orderId);
      if (!order) return [];
      const at = formatDateTime(data.estimatedDeliveryTime, timeZone);
      if (at === null) return [];
      return orderRecipients(event, order, [order.buyerId]).map((userId) => ({
        userId,
        kind: 'arrivalTimes',
        outboxKind: 'push_arrival_time',
        message: {
          title: 'Expected arrival',
          body: `Order ${order.orderNumber} is expected ${at}`,
          url: orderPageOf(userId, order),
          tag: `order-${order.id}`,
        },
      }));
    }
    case 'order.message': {
      const order = ordersById.get(data.orderId);
      if (!order) return [];
      const others = [order.buyerId, order.sellerId, order.driverId].filter(
        (id): id is string => id !== null && id !== data.senderId,
      );
      return orderRecipients(event, order, [...new Set(others)]).map((userId) => ({
        userId,
        kind: 'messages',
        outboxKind: 'push_message',
        message: {
          title: `Message from ${data.senderName}`,
          body: `${data.senderName} wrote about order ${order.orderNumber}`,
          url: orderPageOf(userId, order),
          tag: `order-messages-${order.id}`,
        },
      }));
    }
    case 'product.message': {
      const thread = { kind: 'product' as const, buyerId: data.buyerId, sellerId: data.sellerId };
      return [data.buyerId, data.sellerId]
        .filter(
          (id) =>
            id !== data.senderId &&
            event.audience.includes(id) &&
            canViewMessageThread({ id, roles: [] }, thread),
        )
        .map((userId) => ({
          userId,
          kind: 'messages',
          outboxKind: 'push_message',
          message: {
            title: `Message from ${data.senderName}`,
            body: `${data.senderName} wrote about ${data.productName}`,
            url: userId === data.sellerId ? '/seller/dashboard' : `/products/${data.productId}`,
            tag: `product-messages-${data.productId}-${data.buyerId}`,
          },
        }));
    }
    case 'offers.changed': {
      if (!data.isNew) return [];
      const order = ordersById.get(data.orderId);
      if (!order) return [];
      return (await driversNear(tx, event, order)).map((userId) => ({
        userId,
        kind: 'offers',
        outboxKind: 'push_offer',
        message: {
          title: 'New delivery offer',
          // What an offer shows a driver never includes a price (docs/rules/deliveries.md, Deliveries).
          body: `Order ${order.orderNumber} is ready for a driver near you`,
          url: '/driver/dashboard',
          tag: `offer-${order.id}`,
        },
      }));
    }
    case 'account.changed':
      return [];
  }
}

function orderIdOf(data: LiveEvent): string | undefined {
  return 'orderId' in data ? data.orderId : undefined;
}

/** The push reactor; the marketplace time zone decides quiet hours (docs/rules/running.md, Dates and times). */
export function pushReactor(ctx: AppContext): LiveEventReactor {
  return async (tx, events) => {
    const ordersById = await loadOrders(
      tx,
      events.map((event) => orderIdOf(event.data)).filter((id): id is string => id !== undefined),
    );
    const intents: Intent[] = [];
    for (const event of events)
      intents.push(...(await intentsOf(tx, event, ordersById, ctx.config.marketplaceTz)));
    if (intents.length === 0) return [];
    const userIds = [...new Set(intents.map((intent) => intent.userId))];
    const devices = await tx
      .select({ id: pushSubscriptions.id, userId: pushSubscriptions.userId })
      .from(pushSubscriptions)
      .where(inArray(pushSubscriptions.userId, userIds));
    if (devices.length === 0) return [];
    const preferenceRows = await tx
      .select()
      .from(notificationPreferences)
      .where(inArray(notificationPreferences.userId, userIds));
    const preferencesOf = new Map<string, NotificationPreferences>(
      preferenceRows.map((row) => [row.userId, row]),
    );
    const clock = wallClockAt(ctx.now().getTime(), ctx.config.marketplaceTz);
    const minute = clock.hour * 60 + clock.minute;
    const items: OutboxItem[] = [];
    for (const intent of intents) {
      const preferences = preferencesOf.get(intent.userId) ?? DEFAULT_NOTIFICATION_PREFERENCES;
      if (!preferences[intent.kind]) continue;
      // In quiet hours nothing is sent, not even later: the app shows it when opened.
      if (isQuietMinute(minute, preferences.quietStartMinute, preferences.quietEndMinute)) continue;
      for (const device of devices) {
        if (device.userId !== intent.userId) continue;
        const payload: PushOutboxPayload = { subscriptionId: device.id, message: intent.message };
        items.push({ channel: 'push', kind: intent.outboxKind, userId: intent.userId, payload });
      }
    }
    return items;
  };
}
