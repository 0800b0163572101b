import type { ProductDetail, ProductListItem } from '@domain/catalog';

let counter = 0;

/** A list row as GET /api/products answers it, with overrides; ids are valid UUIDs. */
export function makeProduct(overrides: Partial<ProductListItem> = {}): ProductListItem {
  counter += 1;
  const suffix = String(counter).padStart(12, '0');
  return {
    id: `00000000-0000-4000-8000-${suffix}`,
    sellerId: '00000000-0000-4000-9000-000000000001',
    name: `Product ${counter}`,
    description: 'A fine product.',
    price: '12.50',
    imageUrl: null,
    category: 'Furniture',
    stock: 5,
    available: true,
    requiresTrailer: false,
    sellerDelivery: false,
    sellerDeliveryFee: null,
    offerPickup: false,
    createdAt: '2026-11-01T10:00:00.000Z',
    sellerName: 'Sam Seller',
    sellerRating: 4.25,
    sellerCity: 'Chicago',
    sellerState: 'IL',
    distance: null,
    ...overrides,
  };
}

export function makeProductDetail(overrides: Partial<ProductDetail> = {}): ProductDetail {
  const { images = [], ...rest } = overrides;
  return { ...makeProduct(rest), images };
}
