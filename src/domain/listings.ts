import { z } from 'zod';
import { productSchema } from './catalog';
import { parseCents } from './money';
import { objectPathSchema } from './uploads';
import { visibleText } from './visible-text-schema';
import { isOneLine } from './visible-text';

/**
 * A seller's listings (docs/rules/catalog-and-orders.md, Catalog and distance; docs/rules/selling.md, Seller
 * listings): what a seller may send to create or change a product, the limits, and the status a product
 * shows. Pure, so the create-listing dialog checks the same rules before it sends.
 */

/** At most 10 images a product, the main one included (docs/rules/selling.md, Seller listings). */
export const MAX_PRODUCT_IMAGES = 10;

export const PRODUCT_NAME_MAX = 120;
export const PRODUCT_DESCRIPTION_MAX = 2000;
/** 100,000.00: 999 units of it still fit an order's numeric(10,2) subtotal. */
export const PRODUCT_PRICE_MAX_CENTS = 100_000_00;
export const SELLER_DELIVERY_FEE_MAX_CENTS = 1_000_00;
export const PRODUCT_STOCK_MAX = 100_000;

export const AMOUNT_FORMAT_MESSAGE = 'Must be an amount with 2 decimals, like 12.50';
export const AMOUNT_NOT_NEGATIVE_MESSAGE = 'Must be an amount of 0 or more, like 12.50';
export const STOCK_MESSAGE = 'Must be a whole number of 0 or more';
export const CATEGORY_REQUIRED_MESSAGE = 'Choose a category';
export const UNKNOWN_CATEGORY_MESSAGE = "Choose one of the marketplace's categories";
export const TOO_MANY_IMAGES_MESSAGE = `A product has at most ${MAX_PRODUCT_IMAGES} images`;
export const NOTHING_TO_CHANGE_MESSAGE = 'Send at least one field to change';
export const PRODUCT_CANCELLED_MESSAGE = 'This product is cancelled and can no longer be changed.';
export const PRODUCT_ALREADY_CANCELLED_MESSAGE = 'This product is already cancelled.';

const formatMax = (cents: number) => (cents / 100).toFixed(2);

/**
 * Price and fee at the edge: a decimal string with exactly 2 places, never negative
 * (docs/rules/money.md, Fees and commission), up to `maxCents`.
 */
const AMOUNT_PATTERN = /^\d{1,9}\.\d{2}$/;

/** "-1", "-0.50", "-12.345": a number below 0, however it is written ("-0" is not). */
function isNegativeNumber(text: string): boolean {
  return text.trim() !== '' && Number(text) < 0;
}

/**
 * AMOUNT_PATTERN up to `maxCents` (a power of ten) as one regular expression, so that JSON Schema
 * carries the maximum too.
 */
export function amountPatternUpTo(maxCents: number): RegExp {
  const whole = String(maxCents / 100);
  if (maxCents % 100 !== 0 || !/^10*$/.test(whole)) throw new Error(`not a power of ten: ${maxCents}`);
  return new RegExp(`^(?:\\d{1,${whole.length - 1}}\\.\\d{2}|${whole}\\.00)$`);
}

function amountSchema(maxCents: number) {
  return (
    z
      .string({ error: AMOUNT_FORMAT_MESSAGE })
      // A negative number is told what is wrong with it rather than about its decimals; the other
      // checks are then skipped (abort), so it gets this one message.
      .refine((text) => !isNegativeNumber(text), { message: AMOUNT_NOT_NEGATIVE_MESSAGE, abort: true })
      .regex(AMOUNT_PATTERN, AMOUNT_FORMAT_MESSAGE)
      // zod runs every check: this one speaks only about well-formed amounts.
      .refine(
        (text) => !AMOUNT_PATTERN.test(text) || parseCents(text) <= maxCents,
        `Must be at most ${formatMax(maxCents)}`,
      )
      .meta({ pattern: amountPatternUpTo(maxCents).source })
  );
}

export const productPriceSchema = amountSchema(PRODUCT_PRICE_MAX_CENTS);
export const sellerDeliveryFeeSchema = amountSchema(SELLER_DELIVERY_FEE_MAX_CENTS);

/** Without its invisible characters (docs/rules/running.md, Bad input and failure). */
const nameSchema = visibleText(
  z
    .string({ error: 'Required' })
    .trim()
    .min(1, 'Required')
    .max(PRODUCT_NAME_MAX, `Must be at most ${PRODUCT_NAME_MAX} characters`)
    .refine(isOneLine, 'Name must be on one line'),
);

/** An empty description (invisible characters only included) is no description. */
const descriptionSchema = visibleText(
  z
    .string({ error: 'Must be text' })
    .trim()
    .max(PRODUCT_DESCRIPTION_MAX, `Must be at most ${PRODUCT_DESCRIPTION_MAX} characters`),
)
  .nullable()
  .transform((text) => (text ? text : null));

const stockSchema = z
  .number({ error: STOCK_MESSAGE })
  .int(STOCK_MESSAGE)
  .min(0, STOCK_MESSAGE)
  .max(PRODUCT_STOCK_MAX, `Must be at most ${PRODUCT_STOCK_MAX}`);

/** The category is a name that must exist in the categories table (the server checks that). */
const categorySchema = z
  .string({ error: CATEGORY_REQUIRED_MESSAGE })
  .trim()
  .min(1, CATEGORY_REQUIRED_MESSAGE)
  .max(100, 'Must be at most 100 characters');

const flag = z.boolean({ error: 'Must be true or false' });

/**
 * The fields a seller sets (docs/rules/selling.md, Seller listings). Never the seller, the id, the
 * timestamps, `available` or the images: the strict schemas refuse them (mass assignment).
 */
const listingFields = {
  name: nameSchema,
  description: descriptionSchema.optional(),
  price: productPriceSchema,
  category: categorySchema,
  stock: stockSchema,
  requiresTrailer: flag.optional(),
  sellerDelivery: flag.optional(),
  /** Kept only while the seller delivers; null or absent with seller delivery means free delivery. */
  sellerDeliveryFee: sellerDeliveryFeeSchema.nullable().optional(),
  offerPickup: flag.optional(),
};

export const NEW_PRODUCT_AVAILABLE_MESSAGE = 'A new product is always available: cancel it once it is listed';

/**
 * POST /api/products. The spec's product form also sends `available` (always true for a new
 * product) and the main picture's `imageUrl`, an upload of the seller's own, claimed for the product
 * with it (docs/rules/selling.md, Seller listings).
 */
export const createProductBodySchema = z.strictObject({
  ...listingFields,
  available: z.literal(true, { error: NEW_PRODUCT_AVAILABLE_MESSAGE }).optional(),
  imageUrl: objectPathSchema.optional(),
});
export type CreateProductBody = z.infer<typeof createProductBodySchema>;

/**
 * PATCH /api/products/{id}: any of name, description, price, stock, category and the delivery
 * options; at least one.
 */
export const updateProductBodySchema = z
  .strictObject({
    name: nameSchema.optional(),
    description: descriptionSchema.optional(),
    price: productPriceSchema.optional(),
    category: categorySchema.optional(),
    stock: stockSchema.optional(),
    requiresTrailer: flag.optional(),
    sellerDelivery: flag.optional(),
    sellerDeliveryFee: sellerDeliveryFeeSchema.nullable().optional(),
    offerPickup: flag.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), NOTHING_TO_CHANGE_MESSAGE);
export type UpdateProductBody = z.infer<typeof updateProductBodySchema>;

/** PATCH /api/admin/products/{id}/visibility: an admin hides a product from the catalog or shows it again. */
export const productVisibilityBodySchema = z.strictObject({ hidden: flag });

/** PUT /api/products/{id}/image: the main (first) image. */
export const productMainImageBodySchema = z.strictObject({ imageUrl: objectPathSchema });

/** POST /api/products/{id}/images: one more image; displayOrder places it (default: last). */
export const productImageBodySchema = z.strictObject({
  imageUrl: objectPathSchema,
  displayOrder: z
    .number({ error: 'Must be a whole number' })
    .int('Must be a whole number')
    .min(0, 'Must be 0 or more')
    .max(1000, 'Must be at most 1000')
    .optional(),
});
export type ProductImageBody = z.infer<typeof productImageBodySchema>;

/**
 * PUT /api/products/{id}/images: every image of the product in order, the first is the main one.
 * Leaving one out removes it; a new upload in the list is claimed.
 */
export const productImagesBodySchema = z.strictObject({
  imageUrls: z
    .array(objectPathSchema, { error: 'Must be a list of image paths' })
    .max(MAX_PRODUCT_IMAGES, TOO_MANY_IMAGES_MESSAGE)
    .refine((urls) => new Set(urls).size === urls.length, 'The same image is listed twice'),
});

/**
 * A product as its seller sees it: every field, its images in order (the main one first) and
 * when it was last changed.
 */
export const sellerProductSchema = productSchema.extend({
  imageUrls: z.array(z.string()),
  updatedAt: z.string(),
  /** An admin hid it from the catalog (docs/rules/accounts.md, Moderation). */
  hidden: z.boolean(),
  /** Hidden because its seller may not sell now (the seller role taken away, or suspended). */
  sellerHidden: z.boolean(),
});
export type SellerProduct = z.infer<typeof sellerProductSchema>;

/** The display status of a product (docs/rules/selling.md, Seller listings). */
export type ProductDisplayStatus = 'active' | 'out_of_stock' | 'cancelled';

export const PRODUCT_STATUS_LABEL: Record<ProductDisplayStatus, string> = {
  active: 'Active',
  out_of_stock: 'Out of Stock',
  cancelled: 'Cancelled',
};

/** Active: available with stock; Out of Stock: available with none; Cancelled: not available. */
export function productDisplayStatus(product: { available: boolean; stock: number }): ProductDisplayStatus {
  if (!product.available) return 'cancelled';
  return product.stock > 0 ? 'active' : 'out_of_stock';
}

/** Cancelling is offered only for available products, and cannot be undone. */
export function canCancelProduct(product: { available: boolean }): boolean {
  return product.available;
}
