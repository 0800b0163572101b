import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  sellerProductSchema,
  type CreateProductBody,
  type SellerProduct,
  type UpdateProductBody,
} from '@domain/listings';
import { apiSend } from '../../../lib/api-client';
import { invalidateListings } from './invalidate-listings';

const productPath = (id: string) => `/api/products/${encodeURIComponent(id)}`;
const parse = (answer: unknown) => sellerProductSchema.parse(answer);

/** POST /api/products: the seller is the signed-in user. */
export async function createProduct(body: CreateProductBody): Promise<SellerProduct> {
  return parse(await apiSend('POST', '/api/products', body));
}

/** PATCH /api/products/{id}. */
export async function updateProduct(id: string, body: UpdateProductBody): Promise<SellerProduct> {
  return parse(await apiSend('PATCH', productPath(id), body));
}

/** PUT /api/products/{id}/image: the main image. */
export async function setMainImage(id: string, imageUrl: string): Promise<SellerProduct> {
  return parse(await apiSend('PUT', `${productPath(id)}/image`, { imageUrl }));
}

/** POST /api/products/{id}/images: one more image at `displayOrder`. */
export async function addImage(id: string, imageUrl: string, displayOrder: number): Promise<SellerProduct> {
  return parse(await apiSend('POST', `${productPath(id)}/images`, { imageUrl, displayOrder }));
}

/** PUT /api/products/{id}/images: all the images in order (reorders, removes, claims new ones). */
export async function arrangeImages(id: string, imageUrls: readonly string[]): Promise<SellerProduct> {
  return parse(await apiSend('PUT', `${productPath(id)}/images`, { imageUrls }));
}

/**
 * The images of a new listing, as the spec's calls send them: the first with PUT .../image, each
 * further one with POST .../images and its place.
 */
async function attachImages(product: SellerProduct, imageUrls: readonly string[]): Promise<SellerProduct> {
  let saved = product;
  for (const [index, imageUrl] of imageUrls.entries()) {
    saved =
      index === 0 ? await setMainImage(product.id, imageUrl) : await addImage(product.id, imageUrl, index);
  }
  return saved;
}

/** Why saving stopped: the listing itself, or its images after the listing was saved. */
export class ProductImagesError extends Error {
  constructor(
    readonly product: SellerProduct,
    override readonly cause: unknown,
  ) {
    super('The listing was saved, but its images were not');
    this.name = 'ProductImagesError';
  }
}

export type SaveProductInput =
  | { mode: 'create'; body: CreateProductBody; imageUrls: readonly string[] }
  | {
      mode: 'edit';
      id: string;
      body: UpdateProductBody;
      imageUrls: readonly string[];
      imagesChanged: boolean;
    };

async function saveProduct(input: SaveProductInput): Promise<SellerProduct> {
  const product =
    input.mode === 'create' ? await createProduct(input.body) : await updateProduct(input.id, input.body);
  const needsImages = input.mode === 'create' ? input.imageUrls.length > 0 : input.imagesChanged;
  if (!needsImages) return product;
  try {
    return input.mode === 'create'
      ? await attachImages(product, input.imageUrls)
      : await arrangeImages(product.id, input.imageUrls);
  } catch (error) {
    throw new ProductImagesError(product, error);
  }
}

/** Creates or edits a listing with its images; every view of products is read again afterwards. */
export function useSaveProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveProduct,
    onSettled: () => invalidateListings(queryClient),
  });
}
