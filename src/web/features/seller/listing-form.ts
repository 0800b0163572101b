import type { SellerProduct } from '@domain/listings';

/**
 * The create-listing form (docs/rules/screens-work.md, Seller screens): its values as typed, the defaults
 * of a new listing, and the body it sends, checked by the same schemas as the server.
 */
export interface ListingFormValues {
  name: string;
  description: string;
  /** As typed in the number field ("12.5"). */
  price: string;
  stock: string;
  /** '' until chosen: the first category is then used. */
  category: string;
  requiresTrailer: boolean;
  sellerDelivery: boolean;
  sellerDeliveryFee: string;
  offerPickup: boolean;
  /** Object paths in order; the first is the primary image. */
  imageUrls: string[];
}

/** Price '0', stock 0, first category (docs/rules/screens-work.md, Seller screens); a new listing is available. */
export const NEW_LISTING: ListingFormValues = {
  name: '',
  description: '',
  price: '0',
  stock: '0',
  category: '',
  requiresTrailer: false,
  sellerDelivery: false,
  sellerDeliveryFee: '',
  offerPickup: false,
  imageUrls: [],
};

export function valuesOfProduct(product: SellerProduct): ListingFormValues {
  return {
    name: product.name,
    description: product.description ?? '',
    price: product.price,
    stock: String(product.stock),
    category: product.category,
    requiresTrailer: product.requiresTrailer,
    sellerDelivery: product.sellerDelivery,
    sellerDeliveryFee: product.sellerDeliveryFee ?? '',
    offerPickup: product.offerPickup,
    imageUrls: product.imageUrls,
  };
}

/**
 * A number field's text as the server's amount: "12.5" → "12.50", "7" → "7.00", "" → "0.00". Anything
 * else ("12.345", "-1") is sent as typed, so the schema names what is wrong with it.
 */
export function toAmountText(typed: string): string {
  const text = typed.trim();
  if (text === '') return '0.00';
  const match = /^(\d+)(?:\.(\d{0,2}))?$/.exec(text);
  if (!match) return text;
  return `${match[1]}.${(match[2] ?? '').padEnd(2, '0')}`;
}

/** A whole number as typed, or NaN so the schema says it must be one. */
function toWholeNumber(typed: string): number {
  const text = typed.trim();
  return /^\d+$/.test(text) ? Number(text) : Number.NaN;
}

/** The category sent: the chosen one, else the first of the marketplace's. */
export function effectiveCategory(
  values: ListingFormValues,
  categories: readonly { name: string }[],
): string {
  return values.category || (categories[0]?.name ?? '');
}

/** What the schemas check: the values as the server takes them, with the category sent. */
export function listingInput(values: ListingFormValues, category: string) {
  return {
    name: values.name,
    description: values.description,
    price: toAmountText(values.price),
    stock: toWholeNumber(values.stock),
    category,
    requiresTrailer: values.requiresTrailer,
    sellerDelivery: values.sellerDelivery,
    // The fee field is shown, and sent, only while the seller delivers.
    sellerDeliveryFee:
      values.sellerDelivery && values.sellerDeliveryFee.trim() !== ''
        ? toAmountText(values.sellerDeliveryFee)
        : null,
    offerPickup: values.offerPickup,
  };
}

export function sameImages(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((url, index) => url === b[index]);
}

/** Some or all of a saved listing's images were not saved: which, and why. */
export interface UnsavedImages {
  imageCount: number;
  noneSaved: boolean;
  failures: readonly { position: number; message: string | undefined }[];
}

/**
 * The toast's title after a listing was saved without some of its images (docs/rules/screens-work.md,
 * Seller screens): "The listing was saved, but 1 of its 10 images was not".
 */
export function unsavedImagesTitle({ imageCount, noneSaved, failures }: UnsavedImages): string {
  if (noneSaved || failures.length === 0) return 'The listing was saved, but its images were not';
  const verb = failures.length === 1 ? 'was' : 'were';
  return `The listing was saved, but ${failures.length} of its ${imageCount} images ${verb} not`;
}

/** Each image not saved, by its place in the list as the form shows it: "Image 7: File is not an image". */
export function unsavedImageLines({ failures }: UnsavedImages): string[] {
  return failures.map(({ position, message }) => `Image ${position}: ${message ?? 'Could not be saved'}`);
}
