import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ORDER_STATUSES,
  canTransition,
  fulfilmentLabel,
  fulfilmentOf,
  isActiveDelivery,
  isClosed,
  timelineSteps,
  type Fulfilment,
  type Party,
} from './order-status';

const parties: Party[] = ['buyer', 'seller', 'driver', 'admin'];
const paths: Fulfilment[] = ['driver', 'seller', 'pickup'];

describe('order transitions', () => {
  it('lets a driver take a driver order forward one step at a time', () => {
    expect(canTransition('driver', 'pending', 'assigned', 'driver')).toBe(true);
    expect(canTransition('driver', 'assigned', 'in-transit', 'driver')).toBe(true);
    expect(canTransition('driver', 'in-transit', 'delivered', 'driver')).toBe(true);
    expect(canTransition('driver', 'pending', 'in-transit', 'driver')).toBe(false);
    expect(canTransition('driver', 'assigned', 'in-transit', 'seller')).toBe(false);
  });

  it("lets a driver or an admin accept a driver order, and nobody else; the later steps are the driver's alone", () => {
    expect(canTransition('driver', 'pending', 'assigned', 'admin')).toBe(true);
    expect(canTransition('driver', 'pending', 'assigned', 'buyer')).toBe(false);
    expect(canTransition('driver', 'pending', 'assigned', 'seller')).toBe(false);
    expect(canTransition('driver', 'assigned', 'in-transit', 'admin')).toBe(false);
    expect(canTransition('driver', 'in-transit', 'delivered', 'admin')).toBe(false);
    expect(canTransition('seller', 'pending', 'assigned', 'admin')).toBe(false);
    expect(canTransition('pickup', 'pending', 'assigned', 'admin')).toBe(false);
  });

  it('gives pickup and seller delivery to the seller only', () => {
    expect(canTransition('pickup', 'pending', 'ready_for_pickup', 'seller')).toBe(true);
    expect(canTransition('pickup', 'ready_for_pickup', 'completed', 'seller')).toBe(true);
    expect(canTransition('pickup', 'ready_for_pickup', 'completed', 'buyer')).toBe(false);
    expect(canTransition('seller', 'pending', 'in-transit', 'seller')).toBe(true);
    expect(canTransition('seller', 'pending', 'assigned', 'driver')).toBe(false);
  });

  it('cancels while pending for buyer and seller, until finished for admin', () => {
    expect(canTransition('driver', 'pending', 'cancelled', 'buyer')).toBe(true);
    expect(canTransition('driver', 'assigned', 'cancelled', 'buyer')).toBe(false);
    expect(canTransition('driver', 'assigned', 'cancelled', 'admin')).toBe(true);
    expect(canTransition('driver', 'delivered', 'cancelled', 'admin')).toBe(false);
    expect(canTransition('driver', 'pending', 'cancelled', 'driver')).toBe(false);
  });

  it('never leaves a finished status, whoever asks', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...paths),
        fc.constantFrom(...ORDER_STATUSES.filter(isClosed)),
        fc.constantFrom(...ORDER_STATUSES),
        fc.constantFrom(...parties),
        (path, from, to, party) => !canTransition(path, from, to, party),
      ),
    );
  });

  it('chooses the path from the order flags', () => {
    expect(fulfilmentOf({ isPickup: true, sellerDelivery: true })).toBe('pickup');
    expect(fulfilmentOf({ isPickup: false, sellerDelivery: true })).toBe('seller');
    expect(fulfilmentOf({ isPickup: false, sellerDelivery: false })).toBe('driver');
  });

  it('marks every step up to the current one as done', () => {
    expect(timelineSteps('driver', 'in-transit').map((s) => s.done)).toEqual([true, true, true, false]);
    expect(timelineSteps('pickup', 'completed').map((s) => s.label)).toEqual([
      'Order Placed',
      'Ready for Pickup',
      'Picked Up',
    ]);
  });
});

describe('how an order reaches the buyer, and deliveries under way', () => {
  it('names the path, a driver with a trailer apart', () => {
    const order = { isPickup: false, sellerDelivery: false, requiresTrailer: false };
    expect(fulfilmentLabel({ ...order, isPickup: true, sellerDelivery: true })).toBe(
      'Pickup from the seller',
    );
    expect(fulfilmentLabel({ ...order, sellerDelivery: true, requiresTrailer: true })).toBe(
      'Delivered by the seller',
    );
    expect(fulfilmentLabel(order)).toBe('Delivery by a driver');
    expect(fulfilmentLabel({ ...order, requiresTrailer: true })).toBe('Trailer delivery by a driver');
  });

  it('counts a delivery as under way while assigned or in transit only (docs/rules/deliveries.md, Deliveries)', () => {
    expect(ORDER_STATUSES.filter(isActiveDelivery)).toEqual(['assigned', 'in-transit']);
  });
});
