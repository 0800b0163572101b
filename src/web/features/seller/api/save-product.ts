import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  sellerProductSchema,
  type CreateProductBody,
  type SellerProduct,
  type UpdateProductBody,
} from '@domain/listings';
import { apiSend, errorMessage, fieldErrorsOf, isUnauthorizedError } from '../../../lib/api-client';
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

/** An image that was not saved: its place in the list (1 for the first) and the server's reason. */
export interface ImageFailure {
  position: number;
  /** The server's own message, when it sent one. */
  message: string | undefined;
  error: unknown;
}

const failureAt = (index: number, error: unknown): ImageFailure => ({
  position: index + 1,
  message: errorMessage(error, '') || undefined,
  error,
});

interface AttachedImages {
  product: SellerProduct;
  failures: ImageFailure[];
}

/**
 * The images of a new listing, as the spec's calls send them: the first with PUT .../image, each
 * further one with POST .../images and its place. One refused image does not stop the others
 * (docs/rules/screens-work.md, Seller screens): while no image has been saved, the next one is sent as
 * the main image, so a listing with pictures always has one; the places of those saved stay 1, 2,
 * 3... A signed-out answer stops here: the others would be refused alike.
 */
async function attachImages(product: SellerProduct, imageUrls: readonly string[]): Promise<AttachedImages> {
  let saved = product;
  let attached = 0;
  const failures: ImageFailure[] = [];
  for (const [index, imageUrl] of imageUrls.entries()) {
    try {
      saved =
        attached === 0
          ? await setMainImage(product.id, imageUrl)
          : await addImage(product.id, imageUrl, attached);
      attached += 1;
    } catch (error) {
      if (isUnauthorizedError(error)) {
        for (let rest = index; rest < imageUrls.length; rest += 1) failures.push(failureAt(rest, error));
        break;
      }
      failures.push(failureAt(index, error));
    }
  }
  return { product: saved, failures };
}

/**
 * The images an edit's PUT .../images was refused for: the server names each by its field,
 * `imageUrls.<index>`. The call is all or nothing, so none of the list was saved either way.
 */
function failuresOfArrangement(error: unknown): ImageFailure[] {
  const fields = fieldErrorsOf(error) ?? {};
  return Object.entries(fields)
    .flatMap(([field, message]) => {
      const index = /^imageUrls\.(\d+)$/.exec(field)?.[1];
      return index === undefined ? [] : [{ position: Number(index) + 1, message, error }];
    })
    .sort((a, b) => a.position - b.position);
}

/** What became of a listing's images when some or all of them were not saved. */
export interface ProductImagesOutcome {
  /** The listing as saved after the last call that succeeded. */
  product: SellerProduct;
  /** How many images the listing was saved with. */
  imageCount: number;
  /** None of them was saved (an edit's list is saved whole or not at all). */
  noneSaved: boolean;
  /** The images named as refused, in list order; empty when the server named none. */
  failures: readonly ImageFailure[];
  /** The first refusal. */
  cause: unknown;
}

/** The listing was saved, and some or all of its images were not. */
export class ProductImagesError extends Error {
  readonly product: SellerProduct;
  readonly imageCount: number;
  readonly noneSaved: boolean;
  readonly failures: readonly ImageFailure[];
  override readonly cause: unknown;

  constructor(outcome: ProductImagesOutcome) {
    super('The listing was saved, but its images were not');
    this.name = 'ProductImagesError';
    this.product = outcome.product;
    this.imageCount = outcome.imageCount;
    this.noneSaved = outcome.noneSaved;
    this.failures = outcome.failures;
    this.cause = outcome.cause;
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
  if (input.mode === 'edit') {
    try {
      return await arrangeImages(product.id, input.imageUrls);
    } catch (error) {
      throw new ProductImagesError({
        product,
        imageCount: input.imageUrls.length,
        noneSaved: true,
        failures: failuresOfArrangement(error),
        cause: error,
      });
    }
  }
  const attached = await attachImages(product, input.imageUrls);
  const [first] = attached.failures;
  if (!first) return attached.product;
  throw new ProductImagesError({
    product: attached.product,
    imageCount: input.imageUrls.length,
    noneSaved: attached.failures.length === input.imageUrls.length,
    failures: attached.failures,
    cause: first.error,
  });
}

/** Creates or edits a listing with its images; every view of products is read again afterwards. */
export function useSaveProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveProduct,
    onSettled: () => invalidateListings(queryClient),
  });
}
