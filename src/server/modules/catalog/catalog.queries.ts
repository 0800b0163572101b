import { and, asc, desc, eq, isNotNull, ne, not, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { alias, type SubqueryWithSelection } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { distanceRingsSql } from '../../db/sql-geo';
import { nameContains } from '../../db/sql-text';
import {
  addresses,
  categories,
  productCounts,
  productImages,
  products,
  sellerWordKeys,
  users,
} from '../../db/schema';
import { EARTH_RADIUS_MILES, type LatLng } from '../../../domain/geo';

export interface ProductFilters {
  search?: string | undefined;
  category?: string | undefined;
  /** 'true': stock left only (docs/rules/catalog-and-orders.md, Catalog and distance). */
  inStock?: 'true' | 'false' | undefined;
}

/**
 * Search is a case-insensitive substring of the name (tested on the kept lower-cased name); category is
 * exact, "All" is none (docs/rules/catalog-and-orders.md, Catalog and distance).
 */
function filterConditions(filters: ProductFilters): SQL[] {
  const conditions: SQL[] = [];
  if (filters.search) conditions.push(nameContains(products.searchName, filters.search));
  if (filters.category && filters.category !== 'All')
    conditions.push(eq(products.category, filters.category));
  if (filters.inStock === 'true') conditions.push(sql`${products.stock} > 0`);
  return conditions;
}

const sellerAddress = alias(addresses, 'seller_address');

/** Primary addresses that have coordinates (the distance query's partial index covers exactly these). */
function hasPrimaryLocation(address: typeof addresses) {
  return and(eq(address.isPrimary, true), isNotNull(address.latitude), isNotNull(address.longitude));
}

/**
 * Great-circle miles from `origin` to a point given in float8 degrees, by the haversine formula on the same
 * sphere as `haversineMiles` in src/domain/geo.ts (docs/rules/catalog-and-orders.md, Catalog and distance).
 */
function haversineFrom(origin: LatLng, lat: SQL | AnyColumn, lng: SQL | AnyColumn): SQL<number> {
  const lat0 = sql`${origin.latitude}::float8`;
  const lng0 = sql`${origin.longitude}::float8`;
  // least(1, …) keeps asin defined when rounding pushes the term a hair above 1.
  return sql<number>`(2 * ${EARTH_RADIUS_MILES}::float8 * asin(least(1::float8, sqrt(
    power(sin(radians(${lat} - ${lat0}) / 2), 2)
    + cos(radians(${lat0})) * cos(radians(${lat})) * power(sin(radians(${lng} - ${lng0}) / 2), 2)))))`;
}

/** Miles from `origin` to an address; null when it has no coordinates (least() would skip the null). */
function milesFrom(
  origin: LatLng,
  address: { latitude: AnyColumn; longitude: AnyColumn },
): SQL<number | null> {
  const miles = haversineFrom(origin, sql`${address.latitude}::float8`, sql`${address.longitude}::float8`);
  return sql<number | null>`(case when ${address.latitude} is null or ${address.longitude} is null then null
    else ${miles} end)`;
}

/**
 * Average of the seller's reviews as a seller, to one decimal
 * (docs/rules/screens-buyer.md, Catalog screens: rating with 1 decimal), rounded in SQL numeric so 4.35
 * is 4.4. A correlated subquery: Postgres evaluates it for the rows of the page only, after the
 * limit.
 */
const sellerRating = sql<string | null>`(
  select round(avg(r.rating), 1) from reviews r
  where r.reviewee_id = ${products.sellerId} and r.reviewee_role = 'seller')`;

/**
 * What a product card shows (docs/rules/screens-buyer.md, Catalog screens): the product, its seller's
 * name, rating and place.
 */
function cardFields(origin: LatLng | null) {
  return {
    product: products,
    sellerFirstName: users.firstName,
    sellerLastName: users.lastName,
    sellerRating,
    sellerCity: sellerAddress.city,
    sellerState: sellerAddress.state,
    distance: origin ? milesFrom(origin, sellerAddress) : sql<number | null>`null::float8`,
  };
}

function selectCards(db: Db, origin: LatLng | null) {
  return db
    .select(cardFields(origin))
    .from(products)
    .innerJoin(users, eq(users.id, products.sellerId))
    .leftJoin(
      sellerAddress,
      and(eq(sellerAddress.userId, products.sellerId), eq(sellerAddress.isPrimary, true)),
    )
    .$dynamic();
}

/** A card's row: what the service turns into a list item (docs/rules/screens-buyer.md, Catalog screens). */
export interface ProductCardRow {
  product: typeof products.$inferSelect;
  sellerFirstName: string | null;
  sellerLastName: string | null;
  sellerRating: string | null;
  sellerCity: string | null;
  sellerState: string | null;
  distance: number | null;
}

/** One product's card, any availability, with the distance from `origin` when given. */
export async function findProductCard(
  db: Db,
  id: string,
  origin: LatLng | null,
): Promise<ProductCardRow | undefined> {
  const [row] = await selectCards(db, origin).where(eq(products.id, id)).limit(1);
  return row;
}

/**
 * The cards of one page of products newest first: the page's ids are picked first (an index walk
 * that stops at the page), and the cards' joins and the rating run for those rows only. Joined in
 * one select, Postgres computes every column of the rows OFFSET skips too, the rating's subquery
 * included: page 20 cost twenty pages.
 */
function cardsOfNewestPage(
  db: Db,
  conditions: (SQL | undefined)[],
  query: { limit: number; offset: number },
): Promise<ProductCardRow[]> {
  const page = db
    .select({ id: products.id, createdAt: products.createdAt })
    .from(products)
    .where(and(...conditions))
    .orderBy(desc(products.createdAt), asc(products.id))
    .limit(query.limit)
    .offset(query.offset)
    .as('page');
  return cardsOfPage(db, page);
}

/** The cards of a page of ids picked newest first, in that order. */
function cardsOfPage(
  db: Db,
  page: SubqueryWithSelection<{ id: typeof products.id; createdAt: typeof products.createdAt }, 'page'>,
): Promise<ProductCardRow[]> {
  return db
    .select(cardFields(null))
    .from(page)
    .innerJoin(products, eq(products.id, page.id))
    .innerJoin(users, eq(users.id, products.sellerId))
    .leftJoin(
      sellerAddress,
      and(eq(sellerAddress.userId, products.sellerId), eq(sellerAddress.isPrimary, true)),
    )
    .orderBy(desc(page.createdAt), asc(page.id));
}

/**
 * How a searched page of the distance list is found (docs/decisions/0030-ten-times-the-data.md,
 * Nearest first, the plan sampled). Reading the sellers nearest first and each one's matching products reads
 * about (offset + limit) × products ÷ matches index entries: cheap for a common word, ruinous for
 * a rare one (or a word and a category that never meet). Reading every match through the trigram
 * index reads `matches` rows from the table, each some 30 times an index entry's cost. The two cost
 * the same at matches = √((offset + limit) × products ÷ 30); `few` is set when the matches are
 * thought to be at most that many.
 */
export interface SearchPlan {
  /** Set when at most this many products are thought to match: read them all, then sort. */
  few: number | undefined;
  /**
   * Set when the word has keys and at most `WORD_SELLERS_READ` sellers' words hold them all, fewer
   * than its matches: the distance list reads those sellers (`listNearbyProductCardsOfWordSellers`)
   * instead of the rings or the matches.
   */
  wordSellers: boolean;
  /** Set when no seller's words hold the word's keys: no product matches, nothing to read. */
  none: boolean;
}

/**
 * The most sellers of a word whose places the distance list reads and sorts rather than walking the
 * rings: some 4 µs each on the filled database, so at most about 12 ms; a word more sellers sell fills
 * a page from fewer rings (docs/decisions/0030-ten-times-the-data.md, Sellers passed over).
 */
const WORD_SELLERS_READ = 3000;

/** What reading a matching row from the table costs, in index entries read (measured, bench/scale.bench.mjs). */
const ROW_READ_COST = 30;

/**
 * What reading a seller of the word costs (their place, then their products' entries until the page
 * is full), in index entries read: 1,000 sellers in 5 ms where the rings read 21,000 entries in 11 ms
 * (measured on the filled database, bench/scale.bench.mjs).
 */
const SELLER_READ_COST = 10;

/**
 * The matches are estimated from a sample, the newest products on sale that pass the other
 * filters, large enough to hold this many matches when there are as many as the threshold
 * (docs/decisions/0030-ten-times-the-data.md, Nearest first, the plan sampled).
 */
const SAMPLE_MATCHES_AT_THRESHOLD = 5;

export async function planSearch(
  db: Db,
  filters: ProductFilters,
  window: { limit: number; offset: number },
): Promise<SearchPlan> {
  const rings = { few: undefined, wordSellers: false, none: false };
  if (!filters.search) return rings;
  // The sellers of the word are counted in the same statement as the products on sale.
  const { onSale, population, wordSellers } = await countOnSale(
    db,
    filters,
    hasWordKey(filters.search) ? filters.search : undefined,
  );
  // The keys are a superset of the words each seller sells: no seller with them all, no match.
  if (wordSellers === 0) return { ...rings, none: true };
  const threshold = Math.ceil(Math.sqrt(((window.offset + window.limit) * onSale) / ROW_READ_COST));
  const matches = await estimateMatches(db, filters, population, threshold);
  if (wordSellers === null || wordSellers > WORD_SELLERS_READ)
    return matches <= threshold ? { ...rings, few: threshold } : rings;
  // At most WORD_SELLERS_READ sellers of the word: the cheapest of the three readings, in index
  // entries read (docs/decisions/0030-ten-times-the-data.md, Sellers passed over).
  const cost = {
    few: matches * ROW_READ_COST,
    wordSellers: wordSellers * SELLER_READ_COST,
    rings: ((window.offset + window.limit) * onSale) / Math.max(1, matches),
  };
  if (cost.few <= cost.wordSellers && cost.few <= cost.rings) return { ...rings, few: threshold };
  return cost.wordSellers <= cost.rings ? { ...rings, wordSellers: true } : rings;
}

/**
 * The products on sale (as the kept counts have them), and those of the filters' category when one
 * is asked for; with `wordSellersOf`, how many sellers' words hold every key of that word, counted up
 * to one more than `WORD_SELLERS_READ`, or null when the database finds the word has no key after
 * all (its `lower` may differ from JavaScript's for letters that are not ASCII).
 */
async function countOnSale(db: Db, filters: ProductFilters, wordSellersOf?: string) {
  const category = filters.category && filters.category !== 'All' ? filters.category : undefined;
  const wordSellers =
    wordSellersOf === undefined
      ? sql<number | null>`null::int`
      : sql<
          number | null
        >`(select case when cardinality(word.keys) = 0 then null else (select count(*)::int from (select from ${sellerWordKeys} where ${sellerWordKeys.keys} @> word.keys limit ${WORD_SELLERS_READ + 1}) sellers) end from (select word_keys(lower(${wordSellersOf})) as keys) word)`;
  const [row] = await db
    .select({
      n: sql<number>`coalesce(sum(${productCounts.count}), 0)::int`,
      inCategory: sql<number>`coalesce(sum(${productCounts.count}) filter (where ${productCounts.category} = ${category ?? null}), 0)::int`,
      wordSellers,
    })
    .from(productCounts)
    .where(eq(productCounts.available, true));
  const onSale = Math.max(1, row?.n ?? 0);
  return {
    onSale,
    population: category === undefined ? onSale : Math.max(1, row?.inCategory ?? 0),
    wordSellers: row?.wordSellers ?? null,
  };
}

/**
 * How many products match the search, estimated from a sample: the newest products on sale that pass the
 * other filters (of `population`), read from the catalog's indexes that carry the lower-cased name, sized to hold
 * `SAMPLE_MATCHES_AT_THRESHOLD` matches when there are `threshold` of them. A few thousand index entries
 * whatever the word, where counting the matches read tens of thousands of rows for a common one
 * (docs/decisions/0030-ten-times-the-data.md, Nearest first, the plan sampled).
 */
async function estimateMatches(
  db: Db,
  filters: ProductFilters,
  population: number,
  threshold: number,
): Promise<number> {
  const sampleSize = Math.ceil((SAMPLE_MATCHES_AT_THRESHOLD * population) / threshold);
  const sample = db
    .select({ searchName: products.searchName })
    .from(products)
    .where(and(eq(products.onSale, true), ...filterConditions({ ...filters, search: undefined })))
    .orderBy(desc(products.createdAt), asc(products.id))
    .limit(sampleSize)
    .as('sample');
  const [counted] = await db
    .select({
      seen: sql<number>`count(*)::int`,
      matching: sql<number>`(count(*) filter (where ${nameContains(sample.searchName, filters.search ?? '')}))::int`,
    })
    .from(sample);
  const seen = counted?.seen ?? 0;
  const matching = counted?.matching ?? 0;
  // A sample short of its size was every candidate: its matches are all the matches.
  return seen < sampleSize ? matching : (matching * population) / sampleSize;
}

/** GET /api/products: available products, newest first, filtered and paged in the database. */
export async function listAvailableProductCards(
  db: Db,
  query: ProductFilters & { limit: number; offset: number },
): Promise<ProductCardRow[]> {
  const conditions = [eq(products.onSale, true), ...filterConditions(query)];
  if (!query.search || !query.category || query.category === 'All')
    return cardsOfNewestPage(db, conditions, query);
  // A word in a category (docs/decisions/0030-ten-times-the-data.md, A word in a category).
  // Walking the category newest first reads about (offset + limit) × its products ÷ matches index
  // entries; reading the matches through the index of the name's trigrams keyed by category,
  // `matches` rows. A word without three letters or digits in a row has no key: the walk.
  if (!hasWordKey(query.search)) return cardsOfNewestPage(db, conditions, query);
  const { population } = await countOnSale(db, query);
  const threshold = Math.ceil(Math.sqrt(((query.offset + query.limit) * population) / ROW_READ_COST));
  if ((await estimateMatches(db, query, population, threshold)) > threshold)
    return cardsOfNewestPage(db, conditions, query);
  // Few: through the index (the keys of the word are among those of every name that contains it, so
  // the condition changes no answer), then sorted.
  return cardsOfNewestPage(
    db,
    [
      ...conditions,
      sql`category_word_keys(${products.category}, ${products.searchName}) @> category_word_keys(${query.category}, lower(${query.search}))`,
    ],
    query,
  );
}

/**
 * Whether a searched word has keys (`category_word_keys`, migration 0039; `word_keys`, migration
 * 0040): three ASCII letters or digits in a row. Without one its keys are empty, and an empty set is
 * contained in every row's: the index would be read whole, and no seller passed over.
 */
function hasWordKey(search: string): boolean {
  return /[a-z0-9]{3}/.test(search.toLowerCase());
}

/** The coordinates of a user's primary address, or null when it has none. */
export interface DistancePageQuery extends ProductFilters {
  origin: LatLng;
  /** Miles; undefined means any distance. */
  maxDistance: number | undefined;
  limit: number;
  offset: number;
}

/** A page of products with their distance: the cards' joins (seller, place, rating) for its rows only, nearest first. */
function cardsOfDistancePage(
  db: Db,
  page: SubqueryWithSelection<{ id: typeof products.id; distance: SQL.Aliased<number> }, 'page'>,
): Promise<ProductCardRow[]> {
  return db
    .select({ ...cardFields(null), distance: page.distance })
    .from(page)
    .innerJoin(products, eq(products.id, page.id))
    .innerJoin(users, eq(users.id, products.sellerId))
    .leftJoin(
      sellerAddress,
      and(eq(sellerAddress.userId, products.sellerId), eq(sellerAddress.isPrimary, true)),
    )
    .orderBy(asc(page.distance), desc(products.createdAt), asc(products.id));
}

/** A seller's matching products on sale, newest first (products_available_seller_created_idx): the lateral of both distance walks. */
function sellerProductsOf(db: Db, sellerId: SQL.Aliased<string> | AnyColumn, filters: ProductFilters) {
  return db
    .select({ id: products.id, createdAt: products.createdAt })
    .from(products)
    .where(and(eq(products.sellerId, sellerId), eq(products.onSale, true), ...filterConditions(filters)))
    .orderBy(desc(products.createdAt), asc(products.id))
    .as('seller_products');
}

/**
 * One page of available products whose seller's primary address has coordinates, nearest seller first, then
 * newest, then id (docs/rules/catalog-and-orders.md, Catalog and distance). Built so Postgres reads only the
 * sellers near enough to fill the page (docs/decisions/0015-catalog-and-checkout-throughput.md):
 * - the sellers are read in rings of doubling radius, 1, 2, 4, … miles up to the limit: ring k holds
 *   the sellers whose exact haversine distance is in (r(k-1), r(k)], found through the box of its
 *   outer circle (an index range on addresses_primary_location_idx). The rings partition the
 *   located sellers by distance, so ordering by ring, then distance, is ordering by distance;
 * - for each seller, their available products newest first (products_available_seller_created_idx,
 *   already in that order);
 * - the final order only sorts within a ring (an incremental sort on the ring number), and the limit
 *   stops at the first ring that fills the page: the first page of a city reads the sellers within
 *   a few miles, not every seller in the box of the limit.
 * The cards' joins (seller, place, rating) run for the page's rows only, by primary key.
 */
export async function listNearbyProductCards(db: Db, query: DistancePageQuery): Promise<ProductCardRow[]> {
  const ring = distanceRingsSql(query.origin, query.maxDistance);
  // Only addresses with coordinates get here, so the formula needs no null case.
  const distance = haversineFrom(
    query.origin,
    sql`${addresses.latitude}::float8`,
    sql`${addresses.longitude}::float8`,
  );
  // A searched word: the sellers whose words lack one of its keys are passed over
  // (docs/decisions/0030-ten-times-the-data.md, Sellers passed over); the keys made once. A word the
  // database finds no key in (its `lower` may differ from JavaScript's) passes over no one.
  const search = query.search;
  const sellersWithTheWord =
    search && hasWordKey(search)
      ? sql`((select cardinality(word_keys(lower(${search})))) = 0 or exists (select from ${sellerWordKeys} where ${sellerWordKeys.sellerId} = ${addresses.userId} and ${sellerWordKeys.keys} @> (select word_keys(lower(${search})))))`
      : undefined;
  const sellers = db
    .select({ sellerId: addresses.userId, distance: sql<number>`${distance}`.as('distance') })
    .from(addresses)
    .where(
      and(
        hasPrimaryLocation(addresses),
        sellersWithTheWord,
        sql`${addresses.latitude} between ring.lat_min and ring.lat_max`,
        sql`${addresses.longitude} between ring.lng_min and ring.lng_max`,
        sql`${distance} <= ring.outer_miles`,
        sql`${distance} > ring.inner_miles`,
      ),
    )
    .as('sellers');
  const sellerProducts = sellerProductsOf(db, sellers.sellerId, query);
  const page = db
    .select({ id: sellerProducts.id, distance: sellers.distance })
    .from(ring)
    .crossJoinLateral(sellers)
    .crossJoinLateral(sellerProducts)
    .orderBy(sql`ring.k`, asc(sellers.distance), desc(sellerProducts.createdAt), asc(sellerProducts.id))
    .limit(query.limit)
    .offset(query.offset)
    .as('page');
  return cardsOfDistancePage(db, page);
}

/**
 * The same page as `listNearbyProductCards`, found from the sellers whose kept words hold every key of
 * the searched word (`seller_word_keys`, its GIN index) rather than from the rings: for a word that few
 * sellers sell (`planSearch`, `countOnSale`). Those sellers' places are read by their user id and
 * sorted by distance, then each one's matching products newest first until the page is full (an
 * incremental sort on the distance): the cost grows with the sellers of the word, not with the sellers
 * nearer than the page (docs/decisions/0030-ten-times-the-data.md, Sellers passed over). Only for a
 * word the database finds keys in (`countOnSale` counts its sellers only then): with none, every
 * seller with keys would be read, and a seller whose names have none missed.
 */
export async function listNearbyProductCardsOfWordSellers(
  db: Db,
  query: DistancePageQuery & { search: string },
): Promise<ProductCardRow[]> {
  const distance = haversineFrom(
    query.origin,
    sql`${addresses.latitude}::float8`,
    sql`${addresses.longitude}::float8`,
  );
  const sellers = db
    .select({ sellerId: addresses.userId, distance: sql<number>`${distance}`.as('distance') })
    .from(sellerWordKeys)
    .innerJoin(addresses, and(eq(addresses.userId, sellerWordKeys.sellerId), hasPrimaryLocation(addresses)))
    .where(
      and(
        sql`${sellerWordKeys.keys} @> (select word_keys(lower(${query.search})))`,
        query.maxDistance === undefined ? undefined : sql`${distance} <= ${query.maxDistance}::float8`,
      ),
    )
    // Sorted here, and kept apart (the offset) so the page's sort can start from this order.
    .orderBy(sql`distance`)
    .offset(0)
    .as('sellers');
  const sellerProducts = sellerProductsOf(db, sellers.sellerId, query);
  const page = db
    .select({ id: sellerProducts.id, distance: sellers.distance })
    .from(sellers)
    .crossJoinLateral(sellerProducts)
    .orderBy(asc(sellers.distance), desc(sellerProducts.createdAt), asc(sellerProducts.id))
    .limit(query.limit)
    .offset(query.offset)
    .as('page');
  return cardsOfDistancePage(db, page);
}

/**
 * The same page as `listNearbyProductCards`, nearest seller first, then newest, then id, found
 * from the matching products (a search's trigram index) rather than from the sellers: for a search
 * matching few products (`planSearch`). Without a maximum distance the page goes on past the
 * located sellers' products into those without a distance, newest first, as the whole list does
 * (docs/rules/catalog-and-orders.md, Catalog and distance): reading every match anyway, it orders
 * them all in the one statement, where the sellers' walk needs a count and a second list.
 */
export async function listFewMatchingProductCardsByDistance(
  db: Db,
  query: DistancePageQuery,
): Promise<ProductCardRow[]> {
  // Left-joined, a seller without a place has null coordinates: milesFrom makes their distance null
  // (the bare formula would make it half the earth's circumference, least() skipping the null).
  const distance =
    query.maxDistance === undefined
      ? milesFrom(query.origin, addresses)
      : haversineFrom(query.origin, sql`${addresses.latitude}::float8`, sql`${addresses.longitude}::float8`);
  const located = and(eq(addresses.userId, products.sellerId), hasPrimaryLocation(addresses));
  const matches = db
    .select({
      id: products.id,
      createdAt: products.createdAt,
      distance: sql<number>`${distance}`.as('distance'),
    })
    .from(products);
  const page = (
    query.maxDistance === undefined
      ? matches.leftJoin(addresses, located)
      : matches.innerJoin(addresses, located)
  )
    .where(
      and(
        eq(products.onSale, true),
        ...filterConditions(query),
        query.maxDistance === undefined ? undefined : sql`${distance} <= ${query.maxDistance}::float8`,
      ),
    )
    .orderBy(sql`${distance} asc nulls last`, desc(products.createdAt), asc(products.id))
    .limit(query.limit)
    .offset(query.offset)
    .as('page');
  return cardsOfDistancePage(db, page);
}

/** How many available products match the filters among sellers whose primary address has coordinates. */
export async function countProductsOfLocatedSellers(db: Db, filters: ProductFilters): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(products)
    .innerJoin(addresses, and(eq(addresses.userId, products.sellerId), hasPrimaryLocation(addresses)))
    .where(and(eq(products.onSale, true), ...filterConditions(filters)));
  return row?.n ?? 0;
}

/**
 * Available products whose seller has no coordinates (no primary address, or one without a
 * place): they have no distance and come after every product that has one, newest first.
 */
export async function listUnlocatedProductCards(
  db: Db,
  query: ProductFilters & { limit: number; offset: number },
): Promise<ProductCardRow[]> {
  const located = db
    .select({ one: sql`1` })
    .from(addresses)
    .where(and(eq(addresses.userId, products.sellerId), hasPrimaryLocation(addresses)));
  return cardsOfNewestPage(
    db,
    [eq(products.onSale, true), not(sql`exists ${located}`), ...filterConditions(query)],
    query,
  );
}

/** The extra images of a product in display order, without the main image (it is `imageUrl`). */
export async function listProductImages(db: Db, productId: string, mainImageUrl: string | null) {
  return db
    .select({
      id: productImages.id,
      imageUrl: productImages.imageUrl,
      displayOrder: productImages.displayOrder,
    })
    .from(productImages)
    .where(
      and(
        eq(productImages.productId, productId),
        mainImageUrl === null ? undefined : ne(productImages.imageUrl, mainImageUrl),
      ),
    )
    .orderBy(asc(productImages.displayOrder), asc(productImages.createdAt), asc(productImages.id));
}

export async function findProductImageOwner(db: Db, productId: string) {
  const [row] = await db
    .select({ id: products.id, imageUrl: products.imageUrl })
    .from(products)
    .where(eq(products.id, productId))
    .limit(1);
  return row;
}

export async function listCategories(db: Db) {
  return db
    .select({ id: categories.id, name: categories.name })
    .from(categories)
    .orderBy(asc(categories.name));
}
