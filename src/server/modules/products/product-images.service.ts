import type { Db } from '../../db/client';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors';
import type { Actor } from '../../platform/sessions';
import { checkProductPicture, claimUpload, scheduleImageCopies } from '../uploads/uploads.service';
import {
  MAX_PRODUCT_IMAGES,
  PRODUCT_CANCELLED_MESSAGE,
  TOO_MANY_IMAGES_MESSAGE,
  type ProductImageBody,
  type SellerProduct,
} from '../../../domain/listings';
import {
  ensureNotCancelled,
  findManagedProduct,
  imageUrlsOf,
  PRODUCT_NOT_FOUND,
  sellerProductOf,
  type ProductDeps,
} from './products.service';
import {
  findProduct,
  insertExtraImage,
  listExtraImages,
  lockProduct,
  replaceExtraImages,
  setMainImage,
  touchProduct,
  type ProductRow,
} from './products.queries';

/**
 * A product's images (docs/rules/selling.md, Seller listings; Uploads and who sees a file): at most
 * 10, the first is the main one (`products.image_url`), the others are `product_images` rows in
 * display order. Setting an upload's path on a product claims it (the caller's own finished upload,
 * once) and makes it public. Every change locks the product row, so two calls at once cannot pass
 * the limit together.
 */

const tooManyImages = (field: string) =>
  badRequest(`Invalid request. ${field}: ${TOO_MANY_IMAGES_MESSAGE}`, { [field]: TOO_MANY_IMAGES_MESSAGE });

/**
 * A picture of a list refused (not an image after all, too many pixels) names its place in the
 * list, `imageUrls.<index>`, so the seller is told which one (docs/rules/selling.md, Seller listings).
 */
function namedImageError(error: unknown, index: number): unknown {
  if (!(error instanceof AppError) || error.code !== 'bad_request' || error.fields) return error;
  return badRequest(error.message, { [`imageUrls.${index}`]: error.message });
}

/** The product locked for this transaction, still there and still available. */
async function lockAvailable(tx: Db, id: string): Promise<ProductRow> {
  const product = await lockProduct(tx, id);
  if (!product) throw notFound(PRODUCT_NOT_FOUND);
  if (!product.available) throw conflict(PRODUCT_CANCELLED_MESSAGE);
  return product;
}

async function currentImages(tx: Db, product: ProductRow): Promise<string[]> {
  return imageUrlsOf(product, await listExtraImages(tx, [product.id]));
}

/** The product as it is after the change. */
async function answer(deps: ProductDeps, id: string): Promise<SellerProduct> {
  const product = await findProduct(deps.db, id);
  if (!product) throw notFound(PRODUCT_NOT_FOUND);
  return sellerProductOf(deps.db, product);
}

/**
 * PUT /api/products/{id}/image (its seller or an admin, else 404): the main image. It replaces the
 * main image the product had; setting the one it already has changes nothing.
 */
export async function setProductMainImage(
  deps: ProductDeps,
  actor: Actor,
  id: string,
  imageUrl: string,
): Promise<SellerProduct> {
  const product = await findManagedProduct(deps.db, actor, id);
  ensureNotCancelled(product);
  if (!product.imageUrl && (await currentImages(deps.db, product)).length >= MAX_PRODUCT_IMAGES)
    throw tooManyImages('imageUrl');
  await checkProductPicture(deps, actor, imageUrl);
  await claimUpload(deps, actor, imageUrl, {
    purpose: 'product',
    alreadyHeld: product.imageUrl === imageUrl,
    assign: async (tx) => {
      const locked = await lockAvailable(tx, id);
      if (locked.imageUrl === imageUrl) return;
      if (!locked.imageUrl && (await currentImages(tx, locked)).length >= MAX_PRODUCT_IMAGES)
        throw tooManyImages('imageUrl');
      await setMainImage(tx, id, imageUrl, deps.now());
    },
  });
  if (product.imageUrl !== imageUrl) scheduleImageCopies(deps, imageUrl);
  return answer(deps, id);
}

/**
 * POST /api/products/{id}/images (its seller or an admin, else 404): one more image, at
 * `displayOrder` among the extras (last when absent). A product without a main image gets it as
 * its main image. The 11th image is refused.
 */
export async function addProductImage(
  deps: ProductDeps,
  actor: Actor,
  id: string,
  body: ProductImageBody,
): Promise<SellerProduct> {
  const product = await findManagedProduct(deps.db, actor, id);
  ensureNotCancelled(product);
  // Checked before the claim too, so a full product does not use up the upload.
  if ((await currentImages(deps.db, product)).length >= MAX_PRODUCT_IMAGES) throw tooManyImages('imageUrl');
  await checkProductPicture(deps, actor, body.imageUrl);
  await claimUpload(deps, actor, body.imageUrl, {
    purpose: 'product',
    alreadyHeld: false,
    assign: async (tx) => {
      const locked = await lockAvailable(tx, id);
      const extras = await listExtraImages(tx, [id]);
      if (imageUrlsOf(locked, extras).length >= MAX_PRODUCT_IMAGES) throw tooManyImages('imageUrl');
      const now = deps.now();
      if (!locked.imageUrl) {
        await setMainImage(tx, id, body.imageUrl, now);
        return;
      }
      const last = extras.reduce((max, image) => Math.max(max, image.displayOrder), 0);
      await insertExtraImage(tx, {
        productId: id,
        imageUrl: body.imageUrl,
        displayOrder: body.displayOrder ?? last + 1,
        createdAt: now,
      });
      await touchProduct(tx, id, now);
    },
  });
  scheduleImageCopies(deps, body.imageUrl);
  return answer(deps, id);
}

/**
 * PUT /api/products/{id}/images (its seller or an admin, else 404): every image of the product in
 * the order given, the first as the main image. An image left out is removed from the product; a
 * new upload in the list is claimed. All or nothing: one transaction.
 */
export async function arrangeProductImages(
  deps: ProductDeps,
  actor: Actor,
  id: string,
  imageUrls: readonly string[],
): Promise<SellerProduct> {
  const product = await findManagedProduct(deps.db, actor, id);
  ensureNotCancelled(product);
  if (imageUrls.length > MAX_PRODUCT_IMAGES) throw tooManyImages('imageUrls');
  // New uploads are decoded before the transaction, which must not wait on a decoder.
  const before = new Set(await currentImages(deps.db, product));
  const added = [...new Set(imageUrls)].filter((imageUrl) => !before.has(imageUrl));
  for (const [index, imageUrl] of imageUrls.entries()) {
    if (!added.includes(imageUrl) || imageUrls.indexOf(imageUrl) !== index) continue;
    await checkProductPicture(deps, actor, imageUrl).catch((error: unknown) => {
      throw namedImageError(error, index);
    });
  }
  await deps.db.transaction(async (tx) => {
    const locked = await lockAvailable(tx, id);
    const held = new Set(await currentImages(tx, locked));
    for (const imageUrl of imageUrls) {
      if (held.has(imageUrl)) continue;
      // A savepoint inside this transaction: a refused claim undoes everything.
      await claimUpload({ db: tx, storage: deps.storage }, actor, imageUrl, {
        purpose: 'product',
        alreadyHeld: false,
        assign: async () => undefined,
      });
    }
    const now = deps.now();
    await setMainImage(tx, id, imageUrls[0] ?? null, now);
    await replaceExtraImages(tx, id, imageUrls.slice(1), now);
  });
  for (const imageUrl of added) scheduleImageCopies(deps, imageUrl);
  return answer(deps, id);
}
