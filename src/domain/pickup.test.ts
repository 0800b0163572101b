import { describe, expect, it } from 'vitest';
import { isPickupAvailable } from './pickup';

describe('pickup (docs/rules/catalog-and-orders.md, Checkout and orders)', () => {
  it('offers pickup only when every item offers it', () => {
    expect(isPickupAvailable([{ offerPickup: true }, { offerPickup: true }])).toBe(true);
    expect(isPickupAvailable([{ offerPickup: true }, { offerPickup: false }])).toBe(false);
    expect(isPickupAvailable([{ offerPickup: true }, { offerPickup: undefined }])).toBe(false);
    expect(isPickupAvailable([])).toBe(false);
  });
});
