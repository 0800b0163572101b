import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createProductBodySchema, updateProductBodySchema } from '@domain/listings';
import { fieldErrorsFromZod } from '../../lib/use-schema-form';
import {
  effectiveCategory,
  listingInput,
  NEW_LISTING,
  toAmountText,
  type ListingFormValues,
} from './listing-form';

/**
 * What the listing dialog's form hook does on submit: the values as the server takes them
 * (`listingInput`), checked by the request body's schema, its messages by field.
 */
function parseWith<S extends z.ZodType>(schema: S) {
  return (values: ListingFormValues, category: string) => {
    const parsed = schema.safeParse(listingInput(values, category));
    return parsed.success
      ? ({ ok: true, body: parsed.data as z.output<S> } as const)
      : ({ ok: false, errors: fieldErrorsFromZod(parsed.error) } as const);
  };
}
const parseNewListing = parseWith(createProductBodySchema);
const parseListingChanges = parseWith(updateProductBodySchema);

const categories = [{ name: 'Books' }, { name: 'Furniture' }];

describe('the create-listing form (docs/rules/screens-work.md, Seller screens)', () => {
  it("starts at price '0', stock 0 and the first category", () => {
    expect(NEW_LISTING).toMatchObject({ price: '0', stock: '0', category: '' });
    expect(effectiveCategory(NEW_LISTING, categories)).toBe('Books');
    expect(effectiveCategory({ ...NEW_LISTING, category: 'Furniture' }, categories)).toBe('Furniture');
    expect(effectiveCategory(NEW_LISTING, [])).toBe('');
  });

  it('sends what a number field holds as an amount with two decimals', () => {
    expect(toAmountText('12.5')).toBe('12.50');
    expect(toAmountText('7')).toBe('7.00');
    expect(toAmountText('')).toBe('0.00');
    expect(toAmountText('12.')).toBe('12.00');
    // Left as typed, so the shared schema says what is wrong.
    expect(toAmountText('12.345')).toBe('12.345');
    expect(toAmountText('-1')).toBe('-1');
  });

  it('builds the body, with the delivery fee only while the seller delivers', () => {
    const values = { ...NEW_LISTING, name: 'Oak Shelf', price: '25', stock: '3', sellerDeliveryFee: '4' };
    const plain = parseNewListing(values, 'Books');
    expect(plain).toEqual({
      ok: true,
      body: {
        name: 'Oak Shelf',
        description: null,
        price: '25.00',
        stock: 3,
        category: 'Books',
        requiresTrailer: false,
        sellerDelivery: false,
        sellerDeliveryFee: null,
        offerPickup: false,
      },
    });
    const delivered = parseNewListing({ ...values, sellerDelivery: true }, 'Books');
    expect(delivered.ok && delivered.body.sellerDeliveryFee).toBe('4.00');
  });

  it('names the fields that are wrong', () => {
    const parsed = parseNewListing({ ...NEW_LISTING, price: '12.345', stock: '1.5' }, '');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(Object.keys(parsed.errors).sort()).toEqual(['category', 'name', 'price', 'stock']);
    expect(parseListingChanges({ ...NEW_LISTING, name: 'Shelf', stock: '-2' }, 'Books').ok).toBe(false);
  });

  it('tells a negative price that it must be 0 or more, not about its decimals', () => {
    const parsed = parseNewListing({ ...NEW_LISTING, name: 'Shelf', price: '-1' }, 'Books');
    expect(parsed.ok ? undefined : parsed.errors).toEqual({
      price: 'Must be an amount of 0 or more, like 12.50',
    });
  });
});
