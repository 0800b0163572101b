import type { Db } from '../../db/client';
import type { ObjectStorage } from '../../adapters/storage/object-storage';
import { badRequest, conflict, notFound } from '../../platform/errors';
import { canManageProduct } from '../../platform/policy';
import { productFieldsOf } from '../catalog/catalog.service';
import {
  checkProductPicture,
  claimUpload,
  scheduleImageCopies,
  type ImageCopyScheduler,
} from '../uploads/uploads.service';
import { recordAdminAction } from '../audit/audit.service';
import type { Actor } from '../../platform/sessions';
import {
  PRODUCT_ALREADY_CANCELLED_MESSAGE,
  PRODUCT_CANCELLED_MESSAGE,
  UNKNOWN_CATEGORY_MESSAGE,
  type CreateProductBody,
  type SellerProduct,
  type UpdateProductBody,
} from '../../../domain/listings';
import { formatCents, parseCents } from '../../../domain/money';
import {
  cancelAvailableProduct,
  findCategoryName,
  findProduct,
  insertProduct,
  listExtraImages,
  listProductsOfSeller,
  lockProduct,
  renameCategoryOfProducts,
  setProductHiddenAt,
  setSellerHidden,
  updateAvailableProduct,
  type ProductImageRow,
  type ProductRow,
} from './products.queries';

/**
 * What the product calls need: the database, the clock, and for the pictures they claim the object
 * store and the maker of their resized copies (docs/decisions/0014-first-load.md).
 */
export interface ProductDeps {
  db: Db;
  storage: ObjectStorage;
  now: () => Date;
  imageCopies: ImageCopyScheduler;
}

export const PRODUCT_NOT_FOUND = 'Product not found';
const productNotFound = () => notFound(PRODUCT_NOT_FOUND);

/** Amounts are stored as given once normalised through cents ("0012.50" is 12.50). */
const money = (text: string) => formatCents(parseCents(text));

/**
 * The product's images in order (docs/rules/selling.md, Seller listings): the main image
 * (`imageUrl`) first, then the extra images by display order. An extra that repeats the main image
 * is left out, as the public gallery does.
 */
export function imageUrlsOf(product: Pick<ProductRow, 'imageUrl'>, extras: readonly ProductImageRow[]) {
  const rest = extras.map((image) => image.imageUrl).filter((url) => url !== product.imageUrl);
  return product.imageUrl ? [product.imageUrl, ...rest] : rest;
}

export function toSellerProduct(product: ProductRow, extras: readonly ProductImageRow[]): SellerProduct {
  return {
    ...productFieldsOf(product),
    updatedAt: product.updatedAt.toISOString(),
    imageUrls: imageUrlsOf(product, extras),
    hidden: product.hiddenAt !== null,
    sellerHidden: product.sellerHidden,
  };
}

export async function sellerProductOf(db: Db, product: ProductRow): Promise<SellerProduct> {
  return toSellerProduct(product, await listExtraImages(db, [product.id]));
}

/**
 * The product if the actor may manage it: its seller or an admin
 * (docs/rules/accounts.md, Roles and permissions). Anyone else is told it does not exist.
 */
export async function findManagedProduct(db: Db, actor: Actor, id: string): Promise<ProductRow> {
  const product = await findProduct(db, id);
  if (!product || !canManageProduct(actor, product)) throw productNotFound();
  return product;
}

/** A cancelled product is final: nothing about it changes any more. */
export function ensureNotCancelled(product: Pick<ProductRow, 'available'>): void {
  if (!product.available) throw conflict(PRODUCT_CANCELLED_MESSAGE);
}

/** The stored name of an existing category, else a 400 on the field. */
async function existingCategory(db: Db, name: string): Promise<string> {
  const stored = await findCategoryName(db, name);
  if (!stored)
    throw badRequest(`Invalid request. category: ${UNKNOWN_CATEGORY_MESSAGE}`, {
      category: UNKNOWN_CATEGORY_MESSAGE,
    });
  return stored;
}

/**
 * The seller delivery fee is kept only while the seller delivers; absent means "keep the stored
 * one", null means free delivery.
 */
function deliveryFeeOf(
  sellerDelivery: boolean,
  fee: string | null | undefined,
  storedFee: string | null,
): string | null {
  if (!sellerDelivery) return null;
  if (fee === undefined) return storedFee === null ? null : money(storedFee);
  return fee === null ? null : money(fee);
}

/**
 * POST /api/products (seller or admin; docs/rules/selling.md, Seller listings): the seller is the
 * signed-in user, never a body field; the category must exist; a new product is available. With an
 * `imageUrl` (the caller's own finished upload) the product is made and the picture claimed as its
 * main image in one transaction: a picture that cannot be claimed leaves no product behind.
 */
export async function createProduct(
  deps: ProductDeps,
  actor: Actor,
  body: CreateProductBody,
): Promise<SellerProduct> {
  const category = await existingCategory(deps.db, body.category);
  const sellerDelivery = body.sellerDelivery ?? false;
  const now = deps.now();
  const values = {
    sellerId: actor.id,
    name: body.name,
    description: body.description ?? null,
    price: money(body.price),
    category,
    stock: body.stock,
    available: true,
    requiresTrailer: body.requiresTrailer ?? false,
    sellerDelivery,
    sellerDeliveryFee: deliveryFeeOf(sellerDelivery, body.sellerDeliveryFee, null),
    offerPickup: body.offerPickup ?? false,
    createdAt: now,
    updatedAt: now,
  };
  const { imageUrl } = body;
  if (!imageUrl) return toSellerProduct(await insertProduct(deps.db, values), []);
  await checkProductPicture(deps, actor, imageUrl);
  const product = await claimUpload(deps, actor, imageUrl, {
    purpose: 'product',
    alreadyHeld: false,
    assign: (tx) => insertProduct(tx, { ...values, imageUrl }),
  });
  scheduleImageCopies(deps, imageUrl);
  return toSellerProduct(product, []);
}

/**
 * PATCH /api/products/{id} (its seller or an admin, else 404): name, description, price, stock,
 * category and delivery options. Orders keep the prices they were charged (order items store them),
 * so a new price applies to new orders only (docs/rules/selling.md, Seller listings).
 */
export async function updateProduct(
  deps: ProductDeps,
  actor: Actor,
  id: string,
  body: UpdateProductBody,
): Promise<SellerProduct> {
  const product = await findManagedProduct(deps.db, actor, id);
  ensureNotCancelled(product);
  const sellerDelivery = body.sellerDelivery ?? product.sellerDelivery;
  const updated = await updateAvailableProduct(deps.db, id, {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.price !== undefined ? { price: money(body.price) } : {}),
    ...(body.category !== undefined ? { category: await existingCategory(deps.db, body.category) } : {}),
    ...(body.stock !== undefined ? { stock: body.stock } : {}),
    ...(body.requiresTrailer !== undefined ? { requiresTrailer: body.requiresTrailer } : {}),
    ...(body.offerPickup !== undefined ? { offerPickup: body.offerPickup } : {}),
    sellerDelivery,
    sellerDeliveryFee: deliveryFeeOf(sellerDelivery, body.sellerDeliveryFee, product.sellerDeliveryFee),
    updatedAt: deps.now(),
  });
  // Cancelled between the read and the write.
  if (!updated) throw conflict(PRODUCT_CANCELLED_MESSAGE);
  return sellerProductOf(deps.db, updated);
}

/**
 * DELETE /api/products/{id} (its seller or an admin, else 404): cancels the product. It leaves the
 * public lists and can no longer be bought, its row stays so orders keep their items, and it cannot
 * be undone (docs/rules/selling.md, Seller listings).
 */
export async function cancelProduct(deps: ProductDeps, actor: Actor, id: string): Promise<SellerProduct> {
  await findManagedProduct(deps.db, actor, id);
  const cancelled = await cancelAvailableProduct(deps.db, id, deps.now());
  if (!cancelled) throw conflict(PRODUCT_ALREADY_CANCELLED_MESSAGE);
  return sellerProductOf(deps.db, cancelled);
}

/**
 * GET /api/seller/products (seller or admin): the caller's own products in every status, newest
 * first, each with its images.
 */
export async function listOwnProducts(db: Db, actor: Actor): Promise<SellerProduct[]> {
  const rows = await listProductsOfSeller(db, actor.id);
  const extras = await listExtraImages(
    db,
    rows.map((row) => row.id),
  );
  const byProduct = new Map<string, ProductImageRow[]>();
  for (const image of extras) {
    const list = byProduct.get(image.productId);
    if (list) list.push(image);
    else byProduct.set(image.productId, [image]);
  }
  return rows.map((row) => toSellerProduct(row, byProduct.get(row.id) ?? []));
}

/**
 * Products store their category's name: an admin's rename of a category renames it on every product
 * of that category, inside the rename's transaction. Answers how many products changed.
 */
export async function renameCategoryOnProducts(tx: Db, from: string, to: string): Promise<number> {
  return renameCategoryOfProducts(tx, from, to);
}

/**
 * PATCH /api/admin/products/{id}/visibility (admins; docs/rules/accounts.md, Moderation): hides a
 * product from the catalog, its page and checkouts, or shows it again; its orders are kept. Recorded
 * in the activity log with the product, in the same transaction. Hiding a hidden product changes
 * nothing and records nothing.
 */
export async function setProductVisibility(
  deps: ProductDeps,
  actor: Actor,
  id: string,
  hidden: boolean,
): Promise<SellerProduct> {
  const now = deps.now();
  const product = await deps.db.transaction(async (tx) => {
    const current = await lockProduct(tx, id);
    if (!current) throw notFound(PRODUCT_NOT_FOUND);
    if ((current.hiddenAt !== null) === hidden) return current;
    const changed = await setProductHiddenAt(tx, id, hidden ? now : null, now);
    if (!changed) throw notFound(PRODUCT_NOT_FOUND);
    await recordAdminAction(tx, actor, {
      action: hidden ? 'product.hidden' : 'product.restored',
      target: { type: 'product', id, label: current.name },
      before: { hidden: !hidden },
      after: { hidden },
      now,
    });
    return changed;
  });
  return sellerProductOf(deps.db, product);
}

/**
 * Every listing of a seller leaves the catalog (hidden) or comes back, inside the caller's
 * transaction: the users module calls it when the seller role is taken away or given back, and
 * when a seller is suspended or restored (docs/rules/accounts.md, Moderation). Their orders stay.
 */
export async function setSellerListingsHidden(
  tx: Db,
  sellerId: string,
  hidden: boolean,
  now: Date,
): Promise<number> {
  return setSellerHidden(tx, sellerId, hidden, now);
}
