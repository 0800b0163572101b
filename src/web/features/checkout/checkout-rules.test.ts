// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import {
  CHECKOUT_SESSION_KEYS,
  checkoutBlocker,
  checkoutBodyFromSession,
  clearCheckoutSession,
  dayOfSlotLabel,
  defaultAddressId,
  effectiveDeliveryMethod,
  groupSlotsByDay,
  isPickupAvailable,
  readCheckoutSession,
  saveCheckoutSession,
  sellersOf,
  timeOfSlotLabel,
  toCheckoutBody,
} from './checkout-rules';

afterEach(() => window.sessionStorage.clear());

describe('delivery method (docs/product-rules.md, Checkout and orders)', () => {
  it('offers pickup only when every item offers it', () => {
    expect(isPickupAvailable([{ offerPickup: true }, { offerPickup: true }])).toBe(true);
    expect(isPickupAvailable([{ offerPickup: true }, { offerPickup: false }])).toBe(false);
    expect(isPickupAvailable([{ offerPickup: true }, {}])).toBe(false);
    expect(isPickupAvailable([])).toBe(false);
  });

  it('defaults to delivery and falls back to it when pickup stops being offered', () => {
    expect(effectiveDeliveryMethod('delivery', true)).toBe('delivery');
    expect(effectiveDeliveryMethod('pickup', true)).toBe('pickup');
    expect(effectiveDeliveryMethod('pickup', false)).toBe('delivery');
  });

  it('preselects the primary address, else the first', () => {
    expect(
      defaultAddressId([
        { id: 'a', isPrimary: false },
        { id: 'b', isPrimary: true },
      ]),
    ).toBe('b');
    expect(defaultAddressId([{ id: 'a', isPrimary: false }])).toBe('a');
    expect(defaultAddressId([])).toBeNull();
  });

  it('lists the sellers of the cart once each, in cart order', () => {
    expect(
      sellersOf([
        { sellerId: 's2', sellerName: 'Bo' },
        { sellerId: 's1', sellerName: 'Al' },
        { sellerId: 's2', sellerName: 'Bo' },
      ]),
    ).toEqual([
      { sellerId: 's2', sellerName: 'Bo' },
      { sellerId: 's1', sellerName: 'Al' },
    ]);
  });
});

describe('what stops Proceed to Payment (docs/product-rules.md, Checkout and orders)', () => {
  const base = { addresses: [{ id: 'a1' }], sellerIds: ['s1', 's2'], pickupTimes: {} };

  it('asks for a delivery address', () => {
    expect(checkoutBlocker({ ...base, method: 'delivery', addressId: null })).toEqual({
      title: 'Missing information',
      message: 'Please select a delivery address',
    });
  });

  it('refuses an address that does not exist', () => {
    expect(checkoutBlocker({ ...base, method: 'delivery', addressId: 'gone' })?.message).toBe(
      'Selected address not found',
    );
  });

  it('waits for the addresses before judging the chosen one', () => {
    expect(
      checkoutBlocker({ ...base, addresses: undefined, method: 'delivery', addressId: 'a1' }),
    ).toBeNull();
  });

  it('passes delivery with an existing address', () => {
    expect(checkoutBlocker({ ...base, method: 'delivery', addressId: 'a1' })).toBeNull();
  });

  it('asks every seller of a pickup for a time', () => {
    const missing = { title: 'Missing information', message: 'Please select a pickup time from the seller' };
    expect(checkoutBlocker({ ...base, method: 'pickup', addressId: null })).toEqual(missing);
    expect(
      checkoutBlocker({
        ...base,
        method: 'pickup',
        addressId: null,
        pickupTimes: { s1: '2026-03-02T15:00:00.000Z' },
      }),
    ).toEqual(missing);
    expect(
      checkoutBlocker({
        ...base,
        method: 'pickup',
        addressId: null,
        pickupTimes: { s1: '2026-03-02T15:00:00.000Z', s2: '2026-03-02T16:00:00.000Z' },
      }),
    ).toBeNull();
  });
});

describe('session storage (docs/product-rules.md, Cart and checkout screens)', () => {
  it('keeps the spec keys before /payment', () => {
    saveCheckoutSession({
      isPickup: true,
      deliveryAddress: '',
      deliveryAddressId: '',
      deliveryNotes: '',
      scheduledPickupTime: { s1: '2026-03-02T15:00:00.000Z' },
    });
    expect(Object.keys(CHECKOUT_SESSION_KEYS).sort()).toEqual(
      ['deliveryAddress', 'deliveryAddressId', 'deliveryNotes', 'isPickup', 'scheduledPickupTime'].sort(),
    );
    expect(window.sessionStorage.getItem('isPickup')).toBe('true');
    expect(window.sessionStorage.getItem('deliveryAddress')).toBe('');
    expect(window.sessionStorage.getItem('deliveryAddressId')).toBe('');
    expect(window.sessionStorage.getItem('deliveryNotes')).toBe('');
    expect(JSON.parse(window.sessionStorage.getItem('scheduledPickupTime') ?? 'null')).toEqual({
      s1: '2026-03-02T15:00:00.000Z',
    });
  });

  it('reads back what it kept, and nothing once cleared', () => {
    const session = {
      isPickup: false,
      deliveryAddress: '1 Main St, Chicago, IL 60601',
      deliveryAddressId: 'a1',
      deliveryNotes: 'Ring twice',
      scheduledPickupTime: {},
    };
    saveCheckoutSession(session);
    expect(readCheckoutSession()).toEqual(session);
    clearCheckoutSession();
    expect(readCheckoutSession()).toBeNull();
    expect(window.sessionStorage.length).toBe(0);
  });

  it('survives a hand-edited pickup time', () => {
    window.sessionStorage.setItem('isPickup', 'true');
    window.sessionStorage.setItem('scheduledPickupTime', 'not json');
    expect(readCheckoutSession()?.scheduledPickupTime).toEqual({});
  });
});

describe('checkout body, never amounts (docs/product-rules.md, Checkout and orders)', () => {
  const items = [
    { id: 'p1', quantity: 2, price: '12.5', sellerId: 's1' },
    { id: 'p2', quantity: 1, price: 40, sellerId: 's2' },
  ];

  it('sends the shown price as expectedPrice only', () => {
    const body = toCheckoutBody(items, {
      isPickup: false,
      deliveryAddressId: 'a1',
      deliveryNotes: ' Gate 4 ',
      pickupTimes: {},
    });
    expect(body).toEqual({
      items: [
        { productId: 'p1', quantity: 2, expectedPrice: '12.50' },
        { productId: 'p2', quantity: 1, expectedPrice: '40.00' },
      ],
      isPickup: false,
      deliveryAddressId: 'a1',
      deliveryNotes: 'Gate 4',
    });
  });

  it('sends pickup times of the cart sellers and no address for pickup', () => {
    const body = checkoutBodyFromSession(items, {
      isPickup: true,
      deliveryAddress: '',
      deliveryAddressId: 'a1',
      deliveryNotes: 'ignored',
      scheduledPickupTime: { s1: 't1', s2: 't2', old: 't3' },
    });
    expect(body.deliveryAddressId).toBeNull();
    expect(body.deliveryNotes).toBeNull();
    expect(body.scheduledPickupTimes).toEqual({ s1: 't1', s2: 't2' });
  });
});

describe('pickup slots by day', () => {
  it('groups labels by their day', () => {
    const groups = groupSlotsByDay([
      { label: 'Mon, Nov 23 · 9:00 AM' },
      { label: 'Mon, Nov 23 · 9:30 AM' },
      { label: 'Tue, Nov 24 · 9:00 AM' },
    ]);
    expect(groups.map((g) => [g.day, g.slots.length])).toEqual([
      ['Mon, Nov 23', 2],
      ['Tue, Nov 24', 1],
    ]);
  });

  it('splits a label into the day and the time of day the two selects show', () => {
    expect(dayOfSlotLabel('Mon, Nov 23 · 9:00 AM')).toBe('Mon, Nov 23');
    expect(timeOfSlotLabel('Mon, Nov 23 · 9:00 AM')).toBe('9:00 AM');
    expect(timeOfSlotLabel('odd label')).toBe('odd label');
  });

  it('sends no pickup time for a seller whose time was cleared by choosing another day', () => {
    const body = toCheckoutBody([{ id: 'p1', quantity: 1, price: '1.00', sellerId: 's1' }], {
      isPickup: true,
      deliveryAddressId: null,
      deliveryNotes: '',
      pickupTimes: { s1: '' },
    });
    expect(body.scheduledPickupTimes).toEqual({});
  });
});
