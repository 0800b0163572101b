import { useQuery } from '@tanstack/react-query';
import { productDetailSchema } from '@domain/catalog';
import type { SellerProduct } from '@domain/listings';
import { apiGet } from '../../../lib/api-client';

/**
 * A product as the seller's listing form edits it, for an admin: GET /api/products/{id} (an admin
 * reads a hidden product too) gives its fields and its pictures in order, the main one first. The
 * admin list's row says whether it is hidden. There is no admin read of a whole seller product; the
 * form reads only the fields and pictures, so `updatedAt` and `sellerHidden` are what is known.
 */
export async function fetchProductForEdit(
  productId: string,
  hidden: boolean,
  signal?: AbortSignal,
): Promise<SellerProduct> {
  const detail = productDetailSchema.parse(
    await apiGet(`/api/products/${encodeURIComponent(productId)}`, signal),
  );
  const extras = detail.images.map((image) => image.imageUrl).filter((url) => url !== detail.imageUrl);
  return {
    id: detail.id,
    sellerId: detail.sellerId,
    name: detail.name,
    description: detail.description,
    price: detail.price,
    imageUrl: detail.imageUrl,
    category: detail.category,
    stock: detail.stock,
    available: detail.available,
    requiresTrailer: detail.requiresTrailer,
    sellerDelivery: detail.sellerDelivery,
    sellerDeliveryFee: detail.sellerDeliveryFee,
    offerPickup: detail.offerPickup,
    createdAt: detail.createdAt,
    updatedAt: detail.createdAt,
    imageUrls: detail.imageUrl ? [detail.imageUrl, ...extras] : extras,
    hidden,
    sellerHidden: false,
  };
}

/**
 * Keyed under /api/products, so the listing form's save (which reads every product view again)
 * refreshes it; never kept once the form is closed.
 */
export function useProductForEdit(product: { id: string; hidden: boolean } | null) {
  return useQuery({
    queryKey: ['/api/products', product?.id ?? '', 'admin-edit'] as const,
    queryFn: ({ signal }) => fetchProductForEdit(product?.id ?? '', product?.hidden ?? false, signal),
    enabled: product !== null,
    gcTime: 0,
  });
}
