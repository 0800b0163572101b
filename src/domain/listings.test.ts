import { describe, expect, it } from 'vitest';
import {
  AMOUNT_FORMAT_MESSAGE,
  AMOUNT_NOT_NEGATIVE_MESSAGE,
  createProductBodySchema,
  productDisplayStatus,
  productImagesBodySchema,
  TOO_MANY_IMAGES_MESSAGE,
  updateProductBodySchema,
} from './listings';

const listing = { name: 'Oak Shelf', price: '25.00', category: 'Furniture', stock: 3 };

describe('product display status (docs/rules/selling.md, Seller listings)', () => {
  it('is Active with stock, Out of Stock without, Cancelled when not available whatever the stock', () => {
    expect(productDisplayStatus({ available: true, stock: 3 })).toBe('active');
    expect(productDisplayStatus({ available: true, stock: 0 })).toBe('out_of_stock');
    expect(productDisplayStatus({ available: false, stock: 3 })).toBe('cancelled');
    expect(productDisplayStatus({ available: false, stock: 0 })).toBe('cancelled');
  });
});

describe('the listing body', () => {
  it('takes amounts with exactly two decimals, from 0.00 to 100000.00', () => {
    for (const price of ['0.00', '12.50', '100000.00'])
      expect(createProductBodySchema.safeParse({ ...listing, price }).success, price).toBe(true);
    for (const price of ['12.345', '-1', '-1.00', 'abc', '12', '12.5', '1e3', '100000.01', ''])
      expect(createProductBodySchema.safeParse({ ...listing, price }).success, price).toBe(false);
    const parsed = createProductBodySchema.safeParse({ ...listing, price: 'abc' });
    expect(parsed.error?.issues.map((issue) => issue.message)).toEqual([AMOUNT_FORMAT_MESSAGE]);
  });

  it('tells a negative price or fee that it must be 0 or more, and malformed text about the 2 decimals', () => {
    const messagesOf = (body: Record<string, unknown>) =>
      createProductBodySchema.safeParse({ ...listing, ...body }).error?.issues.map((issue) => issue.message);
    for (const price of ['-1', '-1.00', '-0.01', '-12.345', ' -3 ', '-1e3'])
      expect(messagesOf({ price }), price).toEqual([AMOUNT_NOT_NEGATIVE_MESSAGE]);
    expect(messagesOf({ sellerDelivery: true, sellerDeliveryFee: '-5.00' })).toEqual([
      AMOUNT_NOT_NEGATIVE_MESSAGE,
    ]);
    expect(
      updateProductBodySchema.safeParse({ price: '-2' }).error?.issues.map((issue) => issue.message),
    ).toEqual([AMOUNT_NOT_NEGATIVE_MESSAGE]);
    // Not a negative amount: the format is what is wrong.
    for (const price of ['-', '-abc', '--1', '-0', '-0.00', '12.345', 'abc', '1-2'])
      expect(messagesOf({ price }), price).toEqual([AMOUNT_FORMAT_MESSAGE]);
    expect(AMOUNT_NOT_NEGATIVE_MESSAGE).toBe('Must be an amount of 0 or more, like 12.50');
  });

  it('refuses what a client may never set', () => {
    for (const key of ['sellerId', 'id', 'available', 'createdAt', 'updatedAt', 'imageUrl'])
      expect(createProductBodySchema.safeParse({ ...listing, [key]: 'x' }).success, key).toBe(false);
  });

  it('stores an empty description as none, and needs something to change', () => {
    expect(createProductBodySchema.parse({ ...listing, description: '  ' }).description).toBeNull();
    expect(updateProductBodySchema.safeParse({}).success).toBe(false);
    expect(updateProductBodySchema.safeParse({ stock: 0 }).success).toBe(true);
  });

  it('holds at most 10 images, each once', () => {
    const path = (n: number) => `/objects/uploads/00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const ten = Array.from({ length: 10 }, (_, n) => path(n));
    expect(productImagesBodySchema.safeParse({ imageUrls: ten }).success).toBe(true);
    const eleven = productImagesBodySchema.safeParse({ imageUrls: [...ten, path(10)] });
    expect(eleven.error?.issues[0]?.message).toBe(TOO_MANY_IMAGES_MESSAGE);
    expect(productImagesBodySchema.safeParse({ imageUrls: [path(1), path(1)] }).success).toBe(false);
  });
});

describe('a product name is one line (docs/rules/running.md, Bad input and failure)', () => {
  it.each(['Oak\nShelf', 'Oak\r\nShelf', 'Oak\u2028Shelf', 'Oak\u0085Shelf', 'Oak\u0007Shelf'])(
    'refuses %j with a message for the field',
    (name) => {
      const parsed = createProductBodySchema.safeParse({ ...listing, name });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
        ['name', 'Name must be on one line'],
      ]);
      expect(updateProductBodySchema.safeParse({ name }).success).toBe(false);
    },
  );

  it('keeps a name whose line break is only at an end (trimmed away)', () => {
    expect(createProductBodySchema.parse({ ...listing, name: 'Oak Shelf\n' }).name).toBe('Oak Shelf');
  });
});
