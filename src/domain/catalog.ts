import { z } from 'zod';

/** Money at the edges: a decimal string with 2 places (DECISIONS §6). */
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
export type Product = z.infer<typeof productSchema>;

/** A row of the public lists: the product plus what the card shows about its seller (spec buyer §3). */
export const productListItemSchema = productSchema.extend({
  sellerName: z.string(),
  sellerRating: z.number().nullable(),
  sellerCity: z.string().nullable(),
  sellerState: z.string().nullable(),
  distance: z.number().nullable(),
});
export type ProductListItem = z.infer<typeof productListItemSchema>;

export const PRODUCT_PAGE_SIZE_MAX = 100;

/** GET /api/products: search is a case-insensitive substring of the name (spec buyer §5). */
export const productListQuerySchema = z.object({
  search: z.string().trim().max(200, 'Search is too long').optional(),
  category: z.string().trim().max(100, 'Category is too long').optional(),
  limit: z.coerce.number().int().min(1).max(PRODUCT_PAGE_SIZE_MAX).default(48),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type ProductListQuery = z.infer<typeof productListQuerySchema>;
