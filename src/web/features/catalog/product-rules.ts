import type { ProductImage } from '@domain/catalog';
import { deliveryFeeFor } from '@domain/fees';
import { formatCents, parseCents } from '@domain/money';

/**
 * A product can be bought when it is available and in stock
 * (docs/rules/catalog-and-orders.md, Catalog and distance).
 */
export function isPurchasable(product: { available: boolean; stock: number }): boolean {
  return product.available && product.stock > 0;
}

/** The location line shows only when both city and state exist (docs/rules/screens-buyer.md, Catalog screens). */
export function sellerLocationOf(product: {
  sellerCity: string | null;
  sellerState: string | null;
}): string | null {
  const city = product.sellerCity?.trim();
  const state = product.sellerState?.trim();
  return city && state ? `${city}, ${state}` : null;
}

/** The badge of a cancelled product, as the cart says it (docs/rules/screens-buyer.md, Catalog screens). */
export const NO_LONGER_AVAILABLE_TEXT = 'No longer available';
export const CANCELLED_LISTING_TEXT = 'This listing was cancelled and can no longer be bought.';

/**
 * "24 in stock", "Out of Stock" when available with none, and for a cancelled product (not
 * available) that it can no longer be bought, whatever stock it kept
 * (docs/rules/catalog-and-orders.md, Catalog and distance; docs/rules/screens-buyer.md, Catalog screens).
 */
export function stockTextOf(product: { available: boolean; stock: number }): string {
  if (!product.available) return CANCELLED_LISTING_TEXT;
  return product.stock > 0 ? `${product.stock} in stock` : 'Out of Stock';
}

/**
 * What trailer delivery costs, as charged: a flat fee whatever the distance, not the specification's "$50
 * base plus $2 per mile" (docs/rules/screens-buyer.md, Catalog screens; docs/rules/known-differences.md,
 * Known differences).
 */
export const TRAILER_DELIVERY_TEXT =
  'A flat fee, whatever the distance: one of our drivers delivers it with a trailer.';

export type DeliveryOption =
  { kind: 'seller'; fee: string } | { kind: 'driver'; fee: string } | { kind: 'trailer'; fee: string };

/**
 * How this product reaches a buyer who orders it on its own, with the delivery fee of checkout
 * (docs/rules/catalog-and-orders.md, Checkout and orders; the same function the checkout and the server use):
 * the seller's own delivery at their fee, otherwise a driver for 10.00, or a driver with a trailer
 * for 50.00.
 */
export function deliveryOptionOf(product: {
  requiresTrailer: boolean;
  sellerDelivery: boolean;
  sellerDeliveryFee: string | null;
}): DeliveryOption {
  const { deliveryFee, sellerDelivery, requiresTrailer } = deliveryFeeFor(
    [
      {
        requiresTrailer: product.requiresTrailer,
        sellerDelivery: product.sellerDelivery,
        sellerDeliveryFee: product.sellerDeliveryFee === null ? null : parseCents(product.sellerDeliveryFee),
      },
    ],
    false,
  );
  const fee = formatCents(deliveryFee);
  if (sellerDelivery) return { kind: 'seller', fee };
  return requiresTrailer ? { kind: 'trailer', fee } : { kind: 'driver', fee };
}

/**
 * The gallery: the main image first, then the extra images in display order, each once. Without
 * a main image the first extra one leads; with none at all the gallery is empty (placeholder).
 */
export function galleryOf(mainImageUrl: string | null, extra: readonly ProductImage[]): string[] {
  const urls = [
    mainImageUrl,
    ...[...extra].sort((a, b) => a.displayOrder - b.displayOrder).map((i) => i.imageUrl),
  ];
  return [...new Set(urls.filter((url): url is string => Boolean(url)))];
}
