import { describe, expect, it } from 'vitest';
import { deliveryOptionOf, galleryOf, isPurchasable, sellerLocationOf, stockTextOf } from './product-rules';

const delivery = { requiresTrailer: false, sellerDelivery: false, sellerDeliveryFee: null };

describe('product rules (docs/rules/screens-buyer.md, Catalog screens; docs/rules/catalog-and-orders.md, Checkout and orders)', () => {
  it('can buy only what is available and in stock', () => {
    expect(isPurchasable({ available: true, stock: 1 })).toBe(true);
    expect(isPurchasable({ available: true, stock: 0 })).toBe(false);
    expect(isPurchasable({ available: false, stock: 9 })).toBe(false);
  });

  it('says how many are in stock, "Out of Stock", or that a cancelled product can no longer be bought', () => {
    expect(stockTextOf({ available: true, stock: 7 })).toBe('7 in stock');
    expect(stockTextOf({ available: true, stock: 0 })).toBe('Out of Stock');
    expect(stockTextOf({ available: false, stock: 7 })).toBe(
      'This listing was cancelled and can no longer be bought.',
    );
    expect(stockTextOf({ available: false, stock: 0 })).toBe(
      'This listing was cancelled and can no longer be bought.',
    );
  });

  it('has a location only with both city and state', () => {
    expect(sellerLocationOf({ sellerCity: 'Chicago', sellerState: 'IL' })).toBe('Chicago, IL');
    expect(sellerLocationOf({ sellerCity: 'Chicago', sellerState: null })).toBeNull();
    expect(sellerLocationOf({ sellerCity: null, sellerState: 'IL' })).toBeNull();
    expect(sellerLocationOf({ sellerCity: '', sellerState: 'IL' })).toBeNull();
  });

  it('is delivered by a driver for 10.00, with a trailer for 50.00, or by the seller at their fee', () => {
    expect(deliveryOptionOf(delivery)).toEqual({ kind: 'driver', fee: '10.00' });
    expect(deliveryOptionOf({ ...delivery, requiresTrailer: true })).toEqual({
      kind: 'trailer',
      fee: '50.00',
    });
    expect(deliveryOptionOf({ ...delivery, sellerDelivery: true, sellerDeliveryFee: '7.50' })).toEqual({
      kind: 'seller',
      fee: '7.50',
    });
    expect(deliveryOptionOf({ ...delivery, sellerDelivery: true, sellerDeliveryFee: null })).toEqual({
      kind: 'seller',
      fee: '0.00',
    });
    expect(
      deliveryOptionOf({ requiresTrailer: true, sellerDelivery: true, sellerDeliveryFee: '25.00' }),
    ).toEqual({ kind: 'seller', fee: '25.00' });
  });

  it('puts the main image first, then the extra ones in display order, each once', () => {
    const extra = [
      { id: 'b', imageUrl: '/objects/uploads/b', displayOrder: 2 },
      { id: 'a', imageUrl: '/objects/uploads/a', displayOrder: 1 },
      { id: 'm', imageUrl: '/objects/uploads/main', displayOrder: 3 },
    ];
    expect(galleryOf('/objects/uploads/main', extra)).toEqual([
      '/objects/uploads/main',
      '/objects/uploads/a',
      '/objects/uploads/b',
    ]);
    expect(galleryOf(null, extra.slice(0, 2))).toEqual(['/objects/uploads/a', '/objects/uploads/b']);
    expect(galleryOf(null, [])).toEqual([]);
  });
});
