import { describe, expect, it } from 'vitest';
import { makeEvent, makeOrder } from './testing/order-fixtures';
import {
  canCancel,
  deliveriesInOrder,
  directionsUrl,
  formatRatePercent,
  selectedOrderId,
  seesPrices,
  timelineOf,
} from './order-view';

describe('timeline (docs/rules/catalog-and-orders.md, Order lifecycle)', () => {
  it('labels the driver path and marks every step up to the current one done, with times', () => {
    const order = makeOrder({ status: 'assigned', driverId: 'd' });
    const steps = timelineOf(order, [
      makeEvent({ toStatus: 'pending', createdAt: '2026-03-02T15:00:00.000Z' }),
      makeEvent({ fromStatus: 'pending', toStatus: 'assigned', createdAt: '2026-03-02T16:00:00.000Z' }),
    ]);
    expect(steps.map((s) => [s.label, s.done, s.current])).toEqual([
      ['Order Placed', true, false],
      ['Driver Assigned', true, true],
      ['Out for Delivery', false, false],
      ['Delivered', false, false],
    ]);
    expect(steps[1]?.at).toBe('2026-03-02T16:00:00.000Z');
    expect(steps[2]?.at).toBeNull();
  });

  it('shows each hand back after Order Placed, as where a waiting order stands, and the latest acceptance', () => {
    const placed = makeEvent({ toStatus: 'pending', createdAt: '2026-03-02T15:00:00.000Z' });
    const accepted = makeEvent({
      fromStatus: 'pending',
      toStatus: 'assigned',
      createdAt: '2026-03-02T16:00:00.000Z',
    });
    const handedBack = makeEvent({
      fromStatus: 'assigned',
      toStatus: 'pending',
      createdAt: '2026-03-02T17:00:00.000Z',
    });
    const waiting = timelineOf(makeOrder({ status: 'pending' }), [placed, accepted, handedBack]);
    expect(waiting.map((s) => [s.label, s.done, s.current, s.at])).toEqual([
      ['Order Placed', true, false, '2026-03-02T15:00:00.000Z'],
      ['Driver handed back', true, true, '2026-03-02T17:00:00.000Z'],
      ['Driver Assigned', false, false, null],
      ['Out for Delivery', false, false, null],
      ['Delivered', false, false, null],
    ]);

    const again = makeEvent({
      fromStatus: 'pending',
      toStatus: 'assigned',
      createdAt: '2026-03-02T18:00:00.000Z',
    });
    const taken = timelineOf(makeOrder({ status: 'assigned', driverId: 'd2' }), [
      placed,
      accepted,
      handedBack,
      again,
    ]);
    expect(taken.map((s) => [s.label, s.current, s.at])).toEqual([
      ['Order Placed', false, '2026-03-02T15:00:00.000Z'],
      ['Driver handed back', false, '2026-03-02T17:00:00.000Z'],
      ['Driver Assigned', true, '2026-03-02T18:00:00.000Z'],
      ['Out for Delivery', false, null],
      ['Delivered', false, null],
    ]);
    expect(new Set(taken.map((s) => s.key)).size).toBe(taken.length);
  });

  it('labels the pickup path', () => {
    const steps = timelineOf(makeOrder({ isPickup: true, status: 'completed' }), []);
    expect(steps.map((s) => s.label)).toEqual(['Order Placed', 'Ready for Pickup', 'Picked Up']);
    expect(steps.every((s) => s.done)).toBe(true);
  });

  it('skips Driver Assigned when the seller delivers', () => {
    const steps = timelineOf(makeOrder({ sellerDelivery: true }), undefined);
    expect(steps.map((s) => s.label)).toEqual(['Order Placed', 'Out for Delivery', 'Delivered']);
    // Before the events arrive, the placing time is the order's creation.
    expect(steps[0]?.at).toBe('2026-03-02T15:00:00.000Z');
  });

  it('shows the steps a cancelled order reached, then Cancelled', () => {
    const steps = timelineOf(makeOrder({ status: 'cancelled' }), [
      makeEvent(),
      makeEvent({ fromStatus: 'pending', toStatus: 'cancelled', createdAt: '2026-03-03T10:00:00.000Z' }),
    ]);
    expect(steps.map((s) => s.label)).toEqual(['Order Placed', 'Cancelled']);
    expect(steps[1]).toMatchObject({ done: true, current: true, at: '2026-03-03T10:00:00.000Z' });
  });
});

describe('who sees and does what (docs/rules/accounts.md, Roles and permissions; docs/rules/catalog-and-orders.md, Order lifecycle)', () => {
  it('hides prices from drivers only', () => {
    expect(seesPrices('driver')).toBe(false);
    expect(seesPrices('buyer')).toBe(true);
    expect(seesPrices('seller')).toBe(true);
    expect(seesPrices('admin')).toBe(true);
  });

  it('lets a buyer cancel only a pending order', () => {
    expect(canCancel(makeOrder({ status: 'pending' }), 'buyer')).toBe(true);
    expect(canCancel(makeOrder({ status: 'assigned' }), 'buyer')).toBe(false);
    expect(canCancel(makeOrder({ status: 'pending' }), 'driver')).toBe(false);
    expect(canCancel(makeOrder({ status: 'in-transit' }), 'admin')).toBe(true);
    expect(canCancel(makeOrder({ status: 'delivered' }), 'admin')).toBe(false);
  });
});

describe('directions link (docs/rules/screens-buyer.md, Order screens)', () => {
  it('goes from the pickup coordinates to the delivery address', () => {
    const url = new URL(directionsUrl(makeOrder()) ?? '');
    expect(url.origin + url.pathname).toBe('https://www.google.com/maps/dir/');
    expect(url.searchParams.get('api')).toBe('1');
    expect(url.searchParams.get('origin')).toBe('41.8925,-87.6097');
    expect(url.searchParams.get('destination')).toBe('1060 W Addison St, Chicago, IL 60613');
  });

  it('uses the pickup address when it has no coordinates', () => {
    const order = makeOrder();
    const url = new URL(
      directionsUrl({
        ...order,
        pickupAddress: order.pickupAddress && { ...order.pickupAddress, latitude: null },
      }) ?? '',
    );
    expect(url.searchParams.get('origin')).toBe('700 E Grand Ave, Chicago, IL 60611');
  });

  it('leads to the pickup place for a pickup order, and is absent when nothing is known', () => {
    const pickup = new URL(directionsUrl(makeOrder({ isPickup: true })) ?? '');
    expect(pickup.searchParams.get('origin')).toBeNull();
    expect(pickup.searchParams.get('destination')).toBe('41.8925,-87.6097');
    expect(directionsUrl(makeOrder({ isPickup: true, pickupAddress: null }))).toBeNull();
  });
});

describe('formatting and selection', () => {
  it('shows rates as percentages', () => {
    expect(formatRatePercent('0.0600')).toBe('6%');
    expect(formatRatePercent('0.1000')).toBe('10%');
    expect(formatRatePercent('0.0650')).toBe('6.5%');
    expect(formatRatePercent('0.0000')).toBe('0%');
  });

  it('selects the chosen order, else the requested one, else the first', () => {
    const orders = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    expect(selectedOrderId(orders, null, null)).toBe('a');
    expect(selectedOrderId(orders, null, 'b')).toBe('b');
    expect(selectedOrderId(orders, 'c', 'b')).toBe('c');
    expect(selectedOrderId(orders, 'gone', 'gone')).toBe('a');
    expect(selectedOrderId([], null, null)).toBeNull();
    expect(selectedOrderId(undefined, 'a', null)).toBeNull();
  });
});

describe("a driver's deliveries (docs/rules/screens-work.md, Driver dashboard)", () => {
  it('puts those under way first, each part in the order given', () => {
    const orders = (['delivered', 'assigned', 'cancelled', 'in-transit'] as const).map((status, index) =>
      makeOrder({ id: `o${index}`, status }),
    );
    expect(deliveriesInOrder(orders).map((order) => order.id)).toEqual(['o1', 'o3', 'o0', 'o2']);
  });
});
