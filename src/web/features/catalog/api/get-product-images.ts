import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { productImageSchema, type ProductImage } from '@domain/catalog';
import { apiGet } from '../../../lib/api-client';
import { PRODUCTS_KEY } from './get-products';

/** GET /api/products/{id}/images: the extra images in display order (the main one is the product's imageUrl). */
export async function fetchProductImages(id: string, signal?: AbortSignal): Promise<ProductImage[]> {
  return z
    .array(productImageSchema)
    .parse(await apiGet(`${PRODUCTS_KEY}/${encodeURIComponent(id)}/images`, signal));
}

export function productImagesQueryOptions(id: string) {
  return queryOptions({
    queryKey: [PRODUCTS_KEY, id, 'images'] as const,
    queryFn: ({ signal }) => fetchProductImages(id, signal),
  });
}

/**
 * The gallery's images, asked for once the product is known to exist. The product detail already
 * carries them, so the gallery shows those at once while the images call answers.
 */
export function useProductImages(id: string, fromDetail: readonly ProductImage[] | undefined) {
  return useQuery({
    ...productImagesQueryOptions(id),
    enabled: fromDetail !== undefined,
    placeholderData: fromDetail ? [...fromDetail] : undefined,
  });
}
