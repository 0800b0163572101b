// zod/mini: the live updates of every signed-in page read the badges and hand backs here, without
// classic zod (docs/decisions/0014-first-load.md).
import * as z from 'zod/mini';

/** The stored values (docs/rules/catalog-and-orders.md, Order lifecycle); 'in-transit' keeps the spec's hyphen. */
export const ORDER_STATUSES = [
  'pending',
  'assigned',
  'in-transit',
  'delivered',
  'ready_for_pickup',
  'completed',
  'cancelled',
] as const;
export const orderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof orderStatusSchema>;

/** Badge labels (docs/rules/catalog-and-orders.md, Order lifecycle). */
export const STATUS_BADGE: Record<OrderStatus, string> = {
  pending: 'Pending',
  assigned: 'Assigned',
  'in-transit': 'In Transit',
  delivered: 'Delivered',
  ready_for_pickup: 'Ready for Pickup',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

/** How an order reaches the buyer; decides its path through the statuses. */
export type Fulfilment = 'driver' | 'seller' | 'pickup';

/** Timeline steps and their labels per path (docs/rules/catalog-and-orders.md, Order lifecycle). */
export const TIMELINE: Record<Fulfilment, { status: OrderStatus; label: string }[]> = {
  driver: [
    { status: 'pending', label: 'Order Placed' },
    { status: 'assigned', label: 'Driver Assigned' },
    { status: 'in-transit', label: 'Out for Delivery' },
    { status: 'delivered', label: 'Delivered' },
  ],
  seller: [
    { status: 'pending', label: 'Order Placed' },
    { status: 'in-transit', label: 'Out for Delivery' },
    { status: 'delivered', label: 'Delivered' },
  ],
  pickup: [
    { status: 'pending', label: 'Order Placed' },
    { status: 'ready_for_pickup', label: 'Ready for Pickup' },
    { status: 'completed', label: 'Picked Up' },
  ],
};

/**
 * A driver handing an accepted order back before Start Delivery (docs/rules/deliveries.md, Deliveries)
 * is the one change from assigned back to pending; the timeline shows it with this label.
 */
export const HAND_BACK_LABEL = 'Driver handed back';

/** An order may be handed back by its driver while assigned, never after Start Delivery. */
export function canBeHandedBack(status: string): boolean {
  return status === 'assigned';
}

export function isHandBack(change: { fromStatus: string | null; toStatus: string }): boolean {
  return change.fromStatus === 'assigned' && change.toStatus === 'pending';
}

export function fulfilmentOf(order: { isPickup: boolean; sellerDelivery: boolean }): Fulfilment {
  if (order.isPickup) return 'pickup';
  return order.sellerDelivery ? 'seller' : 'driver';
}

/** "Delivery by a driver", "Delivered by the seller", "Pickup from the seller": how the order reaches the buyer. */
export function fulfilmentLabel(order: {
  isPickup: boolean;
  sellerDelivery: boolean;
  requiresTrailer: boolean;
}): string {
  const path = fulfilmentOf(order);
  if (path === 'pickup') return 'Pickup from the seller';
  if (path === 'seller') return 'Delivered by the seller';
  return order.requiresTrailer ? 'Trailer delivery by a driver' : 'Delivery by a driver';
}

/**
 * A delivery under way: a driver holds it (assigned) or is carrying it (in transit)
 * (docs/rules/deliveries.md, Deliveries).
 */
export const ACTIVE_DELIVERY_STATUSES = ['assigned', 'in-transit'] as const satisfies readonly OrderStatus[];

export function isActiveDelivery(status: OrderStatus | string): boolean {
  return (ACTIVE_DELIVERY_STATUSES as readonly string[]).includes(status);
}

/**
 * Fulfilled: delivered, or picked up (completed). The order reached its buyer: its seller and driver
 * have earned their money, and its parties may review each other (docs/rules/catalog-and-orders.md, Order
 * lifecycle). A cancelled order is never fulfilled.
 */
export const FULFILLED_STATUSES = ['delivered', 'completed'] as const satisfies readonly OrderStatus[];

export function isFulfilled(status: OrderStatus | string): boolean {
  return (FULFILLED_STATUSES as readonly string[]).includes(status);
}

/** Closed: fulfilled or cancelled; no step follows, and not even an admin cancels it. */
export const CLOSED_STATUSES = [...FULFILLED_STATUSES, 'cancelled'] as const satisfies readonly OrderStatus[];

export function isClosed(status: OrderStatus): boolean {
  return (CLOSED_STATUSES as readonly string[]).includes(status);
}

/** Which party of the order an actor is, for the transition rules. */
export type Party = 'buyer' | 'seller' | 'driver' | 'admin';

/** A forward step: the status it leads to and the parties who may make it. */
export interface Step {
  to: OrderStatus;
  by: readonly Party[];
}

/**
 * The forward moves of each path and who may make them (docs/rules/catalog-and-orders.md, Order lifecycle).
 * Accepting a driver order (pending → assigned) is a driver's move, the verified driver who takes
 * the offer and so becomes its driver, or an admin's, who may take orders as a driver would
 * (docs/rules/deliveries.md, Deliveries). Every later step of a driver order is its assigned driver's
 * alone.
 */
const FORWARD: Record<Fulfilment, Partial<Record<OrderStatus, Step>>> = {
  driver: {
    pending: { to: 'assigned', by: ['driver', 'admin'] },
    assigned: { to: 'in-transit', by: ['driver'] },
    'in-transit': { to: 'delivered', by: ['driver'] },
  },
  seller: {
    pending: { to: 'in-transit', by: ['seller'] },
    'in-transit': { to: 'delivered', by: ['seller'] },
  },
  pickup: {
    pending: { to: 'ready_for_pickup', by: ['seller'] },
    ready_for_pickup: { to: 'completed', by: ['seller'] },
  },
};

/**
 * Whether `party` may move an order on path `path` from `from` to `to`. Cancelling: buyer or seller while
 * pending, admin until finished (docs/rules/catalog-and-orders.md, Order lifecycle).
 */
export function canTransition(path: Fulfilment, from: OrderStatus, to: OrderStatus, party: Party): boolean {
  if (to === 'cancelled') {
    if (party === 'admin') return !isClosed(from);
    return (party === 'buyer' || party === 'seller') && from === 'pending';
  }
  const step = FORWARD[path][from];
  return step !== undefined && step.to === to && step.by.includes(party);
}

/** The forward step from `from` on this path and who makes it; undefined at the end of the path. */
export function nextStepOf(path: Fulfilment, from: OrderStatus): Step | undefined {
  return FORWARD[path][from];
}

/** The timeline marks every step up to the current one as done (docs/rules/catalog-and-orders.md, Order lifecycle). */
export function timelineSteps(path: Fulfilment, status: OrderStatus) {
  const steps = TIMELINE[path];
  const current = steps.findIndex((s) => s.status === status);
  return steps.map((s, i) => ({ ...s, done: current >= 0 && i <= current }));
}
