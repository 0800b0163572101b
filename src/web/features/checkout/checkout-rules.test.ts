import { describe, expect, it } from 'vitest';
import {
  checkoutBlocker,
  dayOfSlotLabel,
  defaultAddressId,
  effectiveDeliveryMethod,
  groupSlotsByDay,
  sellersOf,
  timeOfSlotLabel,
} from './checkout-rules';

describe('delivery method (docs/rules/catalog-and-orders.md, Checkout and orders)', () => {
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

describe('what stops Proceed to Payment (docs/rules/catalog-and-orders.md, Checkout and orders)', () => {
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
});
