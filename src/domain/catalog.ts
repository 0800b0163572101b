import { z } from 'zod';
import { ANY_DISTANCE_MILES, MIN_DISTANCE_MILES } from './catalog-distance';

/** Money at the edges: a decimal string with 2 places (docs/rules/money.md, Fees and commission). */
export const moneyStringSchema = z.string().regex(/^\d+\.\d{2}$/);

export const productSchema = z.object({
  id: z.string(),
  sellerId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  price: moneyStringSchema,
  imageUrl: z.string().nullable(),
  category: z.string(),
  stock: z.number().int(),
  available: z.boolean(),
  requiresTrailer: z.boolean(),
  sellerDelivery: z.boolean(),
  sellerDeliveryFee: moneyStringSchema.nullable(),
  offerPickup: z.boolean(),
  createdAt: z.string(),
});

/**
 * A row of the public lists: the product plus what the card shows about its seller
 * (docs/rules/screens-buyer.md, Catalog screens).
 */
export const productListItemSchema = productSchema.extend({
  sellerName: z.string(),
  sellerRating: z.number().nullable(),
  sellerCity: z.string().nullable(),
  sellerState: z.string().nullable(),
  distance: z.number().nullable(),
});
export type ProductListItem = z.infer<typeof productListItemSchema>;

export const PRODUCT_PAGE_SIZE_MAX = 100;

/**
 * GET /api/products: search is a case-insensitive substring of the name
 * (docs/rules/catalog-and-orders.md, Catalog and distance).
 */
export const productListQuerySchema = z.object({
  search: z.string().trim().max(200, 'Search is too long').optional(),
  category: z.string().trim().max(100, 'Category is too long').optional(),
  /**
   * `true`: only products with stock left, as a showcase wants them (the landing's featured strip;
   * docs/rules/catalog-and-orders.md, Catalog and distance).
   */
  inStock: z.enum(['true', 'false'], { message: 'Must be true or false' }).optional(),
  limit: z.coerce.number().int().min(1).max(PRODUCT_PAGE_SIZE_MAX).default(48),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type ProductListQuery = z.infer<typeof productListQuerySchema>;

/**
 * An extra image of a product (docs/rules/screens-buyer.md, Catalog screens: imageUrl and displayOrder);
 * the main one is `imageUrl`.
 */
export const productImageSchema = z.object({
  id: z.string(),
  imageUrl: z.string(),
  displayOrder: z.number().int(),
});
export type ProductImage = z.infer<typeof productImageSchema>;

/**
 * GET /api/products/{id}: the list row (distance when the viewer is signed in and both primary
 * addresses have coordinates) plus the extra images in display order, so the page needs one call.
 */
export const productDetailSchema = productListItemSchema.extend({
  images: z.array(productImageSchema),
});
export type ProductDetail = z.infer<typeof productDetailSchema>;

export { distanceLimitOf } from './catalog-distance';

/** GET /api/products/with-distance: the list's filters plus the slider's maximum distance. */
export const productDistanceQuerySchema = productListQuerySchema.extend({
  maxDistance: z.coerce
    .number({ message: 'Must be a number of miles' })
    .min(MIN_DISTANCE_MILES, `Must be at least ${MIN_DISTANCE_MILES} mile`)
    .max(ANY_DISTANCE_MILES, `Must be at most ${ANY_DISTANCE_MILES} miles`)
    .optional(),
});
export type ProductDistanceQuery = z.infer<typeof productDistanceQuerySchema>;
