// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import {
  CHECKOUT_SESSION_KEYS,
  checkoutBodyFromSession,
  clearCheckoutSession,
  readCheckoutSession,
  saveCheckoutSession,
  toCheckoutBody,
} from './checkout-session';

afterEach(() => window.sessionStorage.clear());

describe('session storage (docs/rules/screens-buyer.md, Cart and checkout screens)', () => {
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

describe('checkout body, never amounts (docs/rules/catalog-and-orders.md, Checkout and orders)', () => {
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
