import type { PickupAddress } from '@domain/addresses';
import { parseRate } from '@domain/money';
import {
  canTransition,
  fulfilmentOf,
  HAND_BACK_LABEL,
  isActiveDelivery,
  isHandBack,
  TIMELINE,
  timelineSteps,
  type Party,
} from '@domain/order-status';
import type { Order, OrderEvent } from '@domain/orders';
import type { Role } from '@domain/roles';
import { formatAddressLine, formatDateTime as formatMarketplaceDateTime } from '../../lib/format';

/**
 * The order details view's rules (docs/rules/screens-buyer.md, Order screens; docs/rules/accounts.md, Roles
 * and permissions; docs/rules/catalog-and-orders.md, Order lifecycle), pure so every role's screen shows the
 * same thing.
 */

/**
 * Drivers never see item prices and see only their own earnings
 * (docs/rules/accounts.md, Roles and permissions).
 */
export function seesPrices(viewerRole: Role): boolean {
  return viewerRole !== 'driver';
}

/** Buyer or seller while pending, admin until finished (docs/rules/catalog-and-orders.md, Order lifecycle). */
export function canCancel(
  order: Pick<Order, 'status' | 'isPickup' | 'sellerDelivery'>,
  viewerRole: Role,
): boolean {
  return canTransition(fulfilmentOf(order), order.status, 'cancelled', viewerRole satisfies Party);
}

export interface TimelineStep {
  key: string;
  label: string;
  done: boolean;
  /** Current: the last step done (the one the order is at). */
  current: boolean;
  /** ISO time the order reached the step, when known. */
  at: string | null;
}

/**
 * The timeline (docs/rules/catalog-and-orders.md, Order lifecycle): the steps of the order's path, every step
 * up to the current one done, each with the time of its status change (the latest one: after a
 * hand back, the driver who accepted it since). Each time a driver handed the order back shows
 * after Order Placed as "Driver handed back" (docs/rules/deliveries.md, Deliveries); while the order
 * waits for another driver that is where it stands. A cancelled order shows the steps it reached,
 * then Cancelled.
 */
export function timelineOf(
  order: Pick<Order, 'status' | 'isPickup' | 'sellerDelivery' | 'createdAt'>,
  events: readonly Pick<OrderEvent, 'fromStatus' | 'toStatus' | 'createdAt'>[] | undefined,
): TimelineStep[] {
  const path = fulfilmentOf(order);
  const timeOf = (status: string): string | null => {
    if (status === 'pending')
      return events?.find((event) => event.fromStatus === null)?.createdAt ?? order.createdAt;
    return events?.findLast((event) => event.toStatus === status)?.createdAt ?? null;
  };
  const handBacks = (events ?? []).filter(isHandBack);
  const handBackSteps = (current: boolean): TimelineStep[] =>
    handBacks.map((event, index) => ({
      key: `handed-back-${index}`,
      label: HAND_BACK_LABEL,
      done: true,
      current: current && index === handBacks.length - 1,
      at: event.createdAt,
    }));
  /** The hand backs go after Order Placed, the first step of every path. */
  const withHandBacks = (steps: TimelineStep[], isWaiting: boolean): TimelineStep[] => {
    if (handBacks.length === 0) return steps;
    const [placed, ...rest] = steps;
    if (!placed) return steps;
    return [{ ...placed, current: placed.current && !isWaiting }, ...handBackSteps(isWaiting), ...rest];
  };

  if (order.status === 'cancelled') {
    const reached = TIMELINE[path].filter(
      (step) => step.status === 'pending' || events?.some((event) => event.toStatus === step.status),
    );
    return [
      ...withHandBacks(
        reached.map((step) => ({
          key: step.status,
          label: step.label,
          done: true,
          current: false,
          at: timeOf(step.status),
        })),
        false,
      ),
      { key: 'cancelled', label: 'Cancelled', done: true, current: true, at: timeOf('cancelled') },
    ];
  }

  const steps = timelineSteps(path, order.status);
  return withHandBacks(
    steps.map((step) => ({
      key: step.status,
      label: step.label,
      done: step.done,
      current: step.status === order.status,
      at: step.done ? timeOf(step.status) : null,
    })),
    order.status === 'pending',
  );
}

/** "0.0600" → "6%", "0.0650" → "6.5%". */
export function formatRatePercent(rate: string): string {
  const basisPoints = parseRate(rate);
  const percent = basisPoints / 100;
  return `${Number.isInteger(percent) ? percent : percent.toFixed(2).replace(/0+$/, '')}%`;
}

/**
 * "Mar 3, 2026 · 2:30 PM CST": in the marketplace time zone, whatever the viewer's
 * (docs/rules/running.md, Dates and times); null for no time.
 */
export function formatDateTime(iso: string | null | undefined): string | null {
  return formatMarketplaceDateTime(iso);
}

export function formatPickupAddress(address: PickupAddress | null): string | null {
  return address ? formatAddressLine(address) : null;
}

/** The place an order goes to: the buyer's address, or nothing for a pickup (it stays at the seller). */
export function deliveryDestination(order: Pick<Order, 'isPickup' | 'deliveryAddress'>): string | null {
  if (order.isPickup) return null;
  const text = order.deliveryAddress.trim();
  return text ? text : null;
}

const DIRECTIONS_BASE = 'https://www.google.com/maps/dir/?api=1';

/**
 * A Google Maps directions link (docs/rules/screens-buyer.md, Order screens) from the pickup coordinates
 * (or the pickup address) to the delivery address. A pickup order has no delivery address: the link
 * leads to the pickup place from wherever the viewer is. Null when neither end is known.
 */
export function directionsUrl(
  order: Pick<Order, 'isPickup' | 'deliveryAddress' | 'pickupAddress'>,
): string | null {
  const pickup = order.pickupAddress;
  const origin =
    pickup && pickup.latitude !== null && pickup.longitude !== null
      ? `${pickup.latitude},${pickup.longitude}`
      : formatPickupAddress(pickup);
  const destination = deliveryDestination(order);
  const params = new URLSearchParams();
  if (destination) {
    if (origin) params.set('origin', origin);
    params.set('destination', destination);
  } else if (origin) {
    params.set('destination', origin);
  } else {
    return null;
  }
  return `${DIRECTIONS_BASE}&${params.toString()}`;
}

/**
 * Which order of a list is shown: the one the viewer picked, else the one asked for (the order
 * just paid, from the address), else the first (docs/rules/screens-buyer.md, Order screens: selected
 * automatically).
 */
export function selectedOrderId(
  orders: readonly Pick<Order, 'id'>[] | undefined,
  chosenId: string | null,
  requestedId: string | null,
): string | null {
  if (!orders || orders.length === 0) return null;
  if (chosenId && orders.some((order) => order.id === chosenId)) return chosenId;
  if (requestedId && orders.some((order) => order.id === requestedId)) return requestedId;
  return orders[0]?.id ?? null;
}

/**
 * A driver's deliveries (docs/rules/screens-work.md, Driver dashboard): those still under way first,
 * then the rest, each part in the list's own order (newest first).
 */
export function deliveriesInOrder<T extends Pick<Order, 'status'>>(orders: readonly T[]): T[] {
  return [
    ...orders.filter((order) => isActiveDelivery(order.status)),
    ...orders.filter((order) => !isActiveDelivery(order.status)),
  ];
}
