import type { Db } from '../../db/client';
import {
  distanceLimitOf,
  type ProductDetail,
  type ProductDistanceQuery,
  type ProductImage,
  type ProductListItem,
  type ProductListQuery,
} from '../../../domain/catalog';
import type { Category } from '../../../domain/categories';
import type { LatLng } from '../../../domain/geo';
import { formatCents, parseCents } from '../../../domain/money';
import { displayName } from '../../../domain/roles';
import { notFound } from '../../platform/errors';
import { canManageProduct } from '../../platform/policy';
import type { CachedAnswer, PublicAnswerCache } from '../../platform/public-cache';
import type { Actor } from '../../platform/sessions';
import {
  countProductsOfLocatedSellers,
  listFewMatchingProductCardsByDistance,
  findProductCard,
  findProductImageOwner,
  listAvailableProductCards,
  listCategories,
  listNearbyProductCards,
  listNearbyProductCardsOfWordSellers,
  listProductImages,
  listUnlocatedProductCards,
  planSearch,
  type ProductCardRow,
} from './catalog.queries';

/**
 * GET /api/categories as sent, from the public cache: the same for everyone until a category
 * changes (docs/decisions/0015-catalog-and-checkout-throughput.md).
 */
export function categoriesAnswer(
  db: Db,
  cache: PublicAnswerCache,
  serialize: (categories: Category[]) => Buffer,
): Promise<CachedAnswer> {
  return cache.answer('categories', async () => serialize(await listCategories(db)));
}

/** numeric(10,2) from the database as the API's decimal string, through integer cents. */
const money = (value: string) => formatCents(parseCents(value));

/**
 * Distance to one decimal, as the card shows it (docs/rules/catalog-and-orders.md, Catalog and distance); the
 * order uses the exact value.
 */
const roundMiles = (miles: number | null) => (miles === null ? null : Math.round(miles * 10) / 10);

const productNotFound = () => notFound('Product not found');

/** The fields every answer about a product carries, money as decimal strings. */
export function productFieldsOf(product: ProductCardRow['product']) {
  return {
    id: product.id,
    sellerId: product.sellerId,
    name: product.name,
    description: product.description,
    price: money(product.price),
    imageUrl: product.imageUrl,
    category: product.category,
    stock: product.stock,
    available: product.available,
    requiresTrailer: product.requiresTrailer,
    sellerDelivery: product.sellerDelivery,
    sellerDeliveryFee: product.sellerDeliveryFee === null ? null : money(product.sellerDeliveryFee),
    offerPickup: product.offerPickup,
    createdAt: product.createdAt.toISOString(),
  };
}

function toListItem({ product, ...seller }: ProductCardRow): ProductListItem {
  return {
    ...productFieldsOf(product),
    // "first last", else the capitalised role word (docs/rules/screens-shared.md, Client behaviour).
    sellerName: displayName({
      firstName: seller.sellerFirstName,
      lastName: seller.sellerLastName,
      role: 'seller',
    }),
    sellerRating: seller.sellerRating === null ? null : Number(seller.sellerRating),
    sellerCity: seller.sellerCity,
    sellerState: seller.sellerState,
    distance: roundMiles(seller.distance === null ? null : Number(seller.distance)),
  };
}

/**
 * GET /api/products: anyone (docs/rules/accounts.md, Roles and permissions); available products only
 * (docs/rules/catalog-and-orders.md, Catalog and distance).
 */
async function browseProducts(db: Db, query: ProductListQuery): Promise<ProductListItem[]> {
  const rows = await listAvailableProductCards(db, query);
  return rows.map(toListItem);
}

/**
 * GET /api/products/with-distance (signed in; docs/rules/catalog-and-orders.md, Catalog and distance). The
 * distance is the great-circle miles between the buyer's and the seller's primary addresses.
 * Nearest first, then newest. Products whose seller (or buyer) has no coordinates have no distance:
 * they come last, newest first, and are left out as soon as a maximum distance is asked for (below
 * 500, which means any). The list as seen from `origin`: the buyer's primary address, null without
 * coordinates.
 */
async function browseProductsFrom(
  db: Db,
  origin: LatLng | null,
  query: ProductDistanceQuery,
): Promise<ProductListItem[]> {
  const maxDistance = distanceLimitOf(query.maxDistance);
  if (!origin) {
    // Without the buyer's coordinates no product has a distance.
    if (maxDistance !== undefined) return [];
    return browseProducts(db, query);
  }
  const filters = { search: query.search, category: query.category, inStock: query.inStock };
  const pageQuery = { ...filters, origin, maxDistance, limit: query.limit, offset: query.offset };
  // A rare word: its few matches sorted by distance; a word few sellers sell: those sellers by
  // distance; else the sellers nearest first, in rings.
  const plan = await planSearch(db, filters, query);
  if (plan.none) return [];
  const rows =
    plan.few !== undefined
      ? await listFewMatchingProductCardsByDistance(db, pageQuery)
      : plan.wordSellers && query.search
        ? await listNearbyProductCardsOfWordSellers(db, { ...pageQuery, search: query.search })
        : await listNearbyProductCards(db, pageQuery);
  // The few matches' page already goes on into the products without a distance.
  if (plan.few === undefined && maxDistance === undefined && rows.length < query.limit) {
    // The page reaches past the located sellers' products into those without a distance. When
    // this page has some located products, they were the last ones, so there were offset + n.
    const located =
      rows.length > 0 ? query.offset + rows.length : await countProductsOfLocatedSellers(db, filters);
    rows.push(
      ...(await listUnlocatedProductCards(db, {
        ...filters,
        limit: query.limit - rows.length,
        offset: Math.max(0, query.offset - located),
      })),
    );
  }
  return rows.map(toListItem);
}

/** Turns a list into the bytes sent (the route's compiled serialiser of its response schema). */
export type SerializeList = (items: ProductListItem[]) => Buffer;

/** What a list answer depends on besides the data: the query, normalised (500 miles is any). */
function listKeyOf(query: ProductListQuery | ProductDistanceQuery): string {
  const maxDistance = 'maxDistance' in query ? distanceLimitOf(query.maxDistance) : undefined;
  return JSON.stringify([
    query.search ?? '',
    query.category ?? '',
    query.inStock === 'true',
    query.limit,
    query.offset,
    maxDistance,
  ]);
}

/**
 * GET /api/products as sent, from the public cache (docs/decisions/0015-catalog-and-checkout-throughput.md):
 * the same for every caller, so one answer per query serves them all until the catalog changes.
 */
export function browseProductsAnswer(
  db: Db,
  cache: PublicAnswerCache,
  query: ProductListQuery,
  serialize: SerializeList,
): Promise<CachedAnswer> {
  return cache.answer(`products ${listKeyOf(query)}`, async () => serialize(await browseProducts(db, query)));
}

/**
 * GET /api/products/with-distance as sent: the answer depends on the buyer's place only, so buyers
 * at the same place share it and buyers at different places each get their own.
 */
export async function browseProductsByDistanceAnswer(
  db: Db,
  cache: PublicAnswerCache,
  actor: Actor,
  query: ProductDistanceQuery,
  serialize: SerializeList,
): Promise<CachedAnswer> {
  return cache.answer(`near ${placeKeyOf(actor)} ${listKeyOf(query)}`, async () =>
    serialize(await browseProductsFrom(db, actor.primaryLocation, query)),
  );
}

/** What the distance list depends on of its caller: the place of their primary address. */
export function placeKeyOf(actor: Pick<Actor, 'primaryLocation'>): string {
  const origin = actor.primaryLocation;
  return origin ? `${origin.latitude},${origin.longitude}` : 'nowhere';
}

/**
 * GET /api/products/{id}: anyone (docs/rules/accounts.md, Roles and permissions), whatever its
 * availability: orders keep their items and their pages link here
 * (docs/rules/catalog-and-orders.md, Catalog and distance). The distance is there for a signed-in viewer.
 */
export async function getProduct(db: Db, actor: Actor | null, id: string): Promise<ProductDetail> {
  const origin = actor?.primaryLocation ?? null;
  const row = await findProductCard(db, id, origin);
  if (!row) throw productNotFound();
  // A product hidden by an admin, or whose seller may not sell now, is shown to its seller and to
  // admins only (docs/rules/accounts.md, Moderation).
  const isHidden = row.product.hiddenAt !== null || row.product.sellerHidden;
  if (isHidden && !(actor && canManageProduct(actor, row.product))) throw productNotFound();
  const images = await listProductImages(db, id, row.product.imageUrl);
  return { ...toListItem(row), images };
}

/**
 * GET /api/products/{id} as a visitor sees it, from the public cache: the same for every visitor
 * until the catalog changes (a product, its images, a review, the seller's name or place). A product
 * a visitor may not see is a 404 each time, never kept.
 */
export function visitorProductAnswer(
  db: Db,
  cache: PublicAnswerCache,
  id: string,
  serialize: (product: ProductDetail) => Buffer,
): Promise<CachedAnswer> {
  return cache.answer(`product ${id}`, async () => serialize(await getProduct(db, null, id)));
}

/** GET /api/products/{id}/images: anyone; the extra images in display order. */
export async function getProductImages(db: Db, id: string): Promise<ProductImage[]> {
  const product = await findProductImageOwner(db, id);
  if (!product) throw productNotFound();
  return listProductImages(db, id, product.imageUrl);
}
