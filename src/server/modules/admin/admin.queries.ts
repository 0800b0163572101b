import { and, asc, count, desc, eq, gte, ilike, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows-of';
import { likePattern, nameContains } from '../../db/sql-text';
import {
  addresses,
  categories,
  createdCounts,
  orderTotals,
  orders,
  productCounts,
  products,
  userCounts,
  users,
} from '../../db/schema';
import type { Role } from '../../../domain/roles';
import type { OrderStatus } from '../../../domain/order-status';
import type { ProductStatusFilter } from '../../../domain/admin';
import type { TrendWindows } from '../../../domain/trends';

/**
 * The admin lists (docs/rules/known-differences.md, Admin): every filter, search, count and page runs in the
 * database. Each list answers one page of rows and the total matching the same filters.
 */

export interface PageWindow {
  limit: number;
  offset: number;
}

/** A list's total over all pages; a lower bound when a search matched more than was counted. */
export interface ListTotal {
  total: number;
  totalIsLowerBound: boolean;
}

/**
 * A searched list counts its matches up to this many rows past the page's first
 * (docs/rules/known-differences.md, Admin): a common word in a million products matches tens of thousands,
 * and counting them all would cost many times the page itself.
 */
export const SEARCH_COUNT_LIMIT = 1000;

/**
 * The rows of `table` matching `where`: all of them, or when `searched` up to the limit past the page's start.
 * A page shorter than the window that is not past the end (`pageRows` rows read from its start) ends the list:
 * its total is known without counting (docs/decisions/0030-ten-times-the-data.md, A short page's total).
 */
async function totalOf(
  db: Db,
  table: PgTable,
  where: SQL | undefined,
  window: PageWindow,
  searched: boolean,
  pageRows: number,
): Promise<ListTotal> {
  if (pageRows < window.limit && (pageRows > 0 || window.offset === 0))
    return { total: window.offset + pageRows, totalIsLowerBound: false };
  if (!searched) {
    const [row] = await db.select({ n: count() }).from(table).where(where);
    return { total: row?.n ?? 0, totalIsLowerBound: false };
  }
  const limit = window.offset + SEARCH_COUNT_LIMIT;
  const matching = db
    .select({ one: sql`1` })
    .from(table)
    .where(where)
    .limit(limit + 1)
    .as('matching');
  const [row] = await db.select({ n: count() }).from(matching);
  const n = row?.n ?? 0;
  return n > limit ? { total: limit, totalIsLowerBound: true } : { total: n, totalIsLowerBound: false };
}

const fullName = (table: typeof users) =>
  sql`coalesce(${table.firstName}, '') || ' ' || coalesce(${table.lastName}, '')`;

/** Name ("first last", either part) or email, case-insensitive. */
function userSearch(table: typeof users, search: string | undefined): SQL | undefined {
  if (!search) return undefined;
  const pattern = likePattern(search);
  return or(ilike(table.email, pattern), sql`${fullName(table)} ilike ${pattern}`);
}

const hasGrantedRole = (role: Role) => sql`${role} = any(${users.roles})`;

export interface UserFilter {
  search: string | undefined;
  role: Role | undefined;
}

/** The users list's filters, shared by its pages and its export. */
export function userListWhere(filter: UserFilter): SQL | undefined {
  return and(userSearch(users, filter.search), filter.role ? hasGrantedRole(filter.role) : undefined);
}

export async function listUsersPage(db: Db, filter: UserFilter & PageWindow) {
  const where = userListWhere(filter);
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), asc(users.id))
    .limit(filter.limit)
    .offset(filter.offset);
  if (where)
    return { rows, ...(await totalOf(db, users, where, filter, Boolean(filter.search), rows.length)) };
  // Without a filter the total is the kept count's (migration 0036), not a count of every user.
  const [total] = await db
    .select({ n: sql<number>`coalesce(sum(${userCounts.count}), 0)::int` })
    .from(userCounts);
  return { rows, total: total?.n ?? 0, totalIsLowerBound: false };
}

const buyers = alias(users, 'buyer');
const sellers = alias(users, 'seller');
const drivers = alias(users, 'driver');

/** Which orders an admin asks for (docs/rules/known-differences.md, Admin); every part optional. */
export interface OrderFilter {
  /** The order number, a substring. */
  search?: string | undefined;
  status?: OrderStatus | undefined;
  /** A party's name ("first last") or email, a substring. */
  buyer?: string | undefined;
  seller?: string | undefined;
  driver?: string | undefined;
  /** Placed at or after this instant, and before that one. */
  from?: Date | undefined;
  before?: Date | undefined;
  /** One user's orders in one part (a user's details). */
  buyerId?: string | undefined;
  sellerId?: string | undefined;
  driverId?: string | undefined;
}

/** The order's party is a user whose name or email matches: a subquery, so counting needs no join. */
function partyMatches(column: AnyPgColumn, search: string | undefined): SQL | undefined {
  if (!search) return undefined;
  return sql`${column} in (select ${users.id} from ${users} where ${userSearch(users, search)})`;
}

/** The orders list's filters, on the orders table alone (its pages, its count and its export). */
export function orderListWhere(filter: OrderFilter): SQL | undefined {
  return and(
    filter.search ? ilike(orders.orderNumber, likePattern(filter.search)) : undefined,
    filter.status ? eq(orders.status, filter.status) : undefined,
    partyMatches(orders.buyerId, filter.buyer),
    partyMatches(orders.sellerId, filter.seller),
    partyMatches(orders.driverId, filter.driver),
    filter.from ? gte(orders.createdAt, filter.from) : undefined,
    filter.before ? lt(orders.createdAt, filter.before) : undefined,
    filter.buyerId ? eq(orders.buyerId, filter.buyerId) : undefined,
    filter.sellerId ? eq(orders.sellerId, filter.sellerId) : undefined,
    filter.driverId ? eq(orders.driverId, filter.driverId) : undefined,
  );
}

/** An admin order row with its parties, for the list, a user's details and the export. */
export function selectOrderRows(db: Db) {
  return db
    .select({
      order: {
        id: orders.id,
        orderNumber: orders.orderNumber,
        status: orders.status,
        isPickup: orders.isPickup,
        sellerDelivery: orders.sellerDelivery,
        requiresTrailer: orders.requiresTrailer,
        productSubtotal: orders.productSubtotal,
        deliveryFee: orders.deliveryFee,
        total: orders.total,
        platformFee: orders.platformFee,
        createdAt: orders.createdAt,
      },
      cursor: { createdAt: sql<string>`${orders.createdAt}::text`, id: orders.id },
      buyer: {
        id: buyers.id,
        firstName: buyers.firstName,
        lastName: buyers.lastName,
        email: buyers.email,
        suspendedAt: buyers.suspendedAt,
      },
      seller: {
        id: sellers.id,
        firstName: sellers.firstName,
        lastName: sellers.lastName,
        email: sellers.email,
        suspendedAt: sellers.suspendedAt,
      },
      driver: {
        id: drivers.id,
        firstName: drivers.firstName,
        lastName: drivers.lastName,
        email: drivers.email,
        suspendedAt: drivers.suspendedAt,
      },
    })
    .from(orders)
    .innerJoin(buyers, eq(buyers.id, orders.buyerId))
    .innerJoin(sellers, eq(sellers.id, orders.sellerId))
    .leftJoin(drivers, eq(drivers.id, orders.driverId));
}

export async function listOrdersPage(db: Db, filter: OrderFilter & PageWindow) {
  const where = orderListWhere(filter);
  const rows = await selectOrderRows(db)
    .where(where)
    .orderBy(desc(orders.createdAt), asc(orders.id))
    .limit(filter.limit)
    .offset(filter.offset);
  const searched = Boolean(filter.search || filter.buyer || filter.seller || filter.driver);
  return { rows, ...(await totalOf(db, orders, where, filter, searched, rows.length)) };
}

export interface ProductFilter {
  search: string | undefined;
  category: string | undefined;
  status: ProductStatusFilter;
}

/** The products list's filters, shared by its pages and its export. */
export function productListWhere(filter: ProductFilter): SQL | undefined {
  return and(
    // The kept lower-cased name (docs/decisions/0030-ten-times-the-data.md, Names lower-cased once).
    filter.search ? nameContains(products.searchName, filter.search) : undefined,
    filter.category ? eq(products.category, filter.category) : undefined,
    filter.status === 'all' ? undefined : eq(products.available, filter.status === 'active'),
  );
}

/** What a row of the admin's products list shows. */
const productListFields = {
  id: products.id,
  name: products.name,
  category: products.category,
  price: products.price,
  stock: products.stock,
  available: products.available,
  hiddenAt: products.hiddenAt,
  onSale: products.onSale,
  imageUrl: products.imageUrl,
  sellerId: products.sellerId,
  createdAt: products.createdAt,
};

export async function listProductsPage(db: Db, filter: ProductFilter & PageWindow) {
  const where = productListWhere(filter);
  const newestFirst = [desc(products.createdAt), asc(products.id)];
  if (filter.search) return searchProductsPage(db, where, newestFirst, filter);
  // The page's ids first, then its rows.
  const page = db
    .select({ id: products.id, createdAt: products.createdAt })
    .from(products)
    .where(where)
    .orderBy(...newestFirst)
    .limit(filter.limit)
    .offset(filter.offset)
    .as('admin_products_page');
  const rows = await db
    .select({ product: productListFields, sellerFirstName: users.firstName, sellerLastName: users.lastName })
    .from(page)
    .innerJoin(products, eq(products.id, page.id))
    .innerJoin(users, eq(users.id, products.sellerId))
    .orderBy(desc(page.createdAt), asc(page.id));
  // Without a search the total is the kept counts' (migration 0026), not a count of a million rows.
  const [total] = await db
    .select({ n: sql<number>`coalesce(sum(${productCounts.count}), 0)::int` })
    .from(productCounts)
    .where(
      and(
        filter.category ? eq(productCounts.category, filter.category) : undefined,
        filter.status === 'all' ? undefined : eq(productCounts.available, filter.status === 'active'),
      ),
    );
  return { rows, total: total?.n ?? 0, totalIsLowerBound: false };
}

/**
 * A search's page and its count in one statement: the matches newest first, up to the count's
 * bound past the page's start (`SEARCH_COUNT_LIMIT`), read once (from the products index carrying
 * the lower-cased name, or through the trigram index for a rare word), then counted and the page
 * cut from them (docs/decisions/0030-ten-times-the-data.md, Names lower-cased once). A page past
 * the end still has its count: the count is the statement's first table, the page joined to it.
 */
async function searchProductsPage(db: Db, where: SQL | undefined, newestFirst: SQL[], filter: PageWindow) {
  const bound = filter.offset + SEARCH_COUNT_LIMIT;
  const matches = db.$with('admin_product_matches').as(
    db
      .select({ matchId: products.id, matchCreatedAt: products.createdAt })
      .from(products)
      .where(where)
      .orderBy(...newestFirst)
      .limit(bound + 1),
  );
  const counted = db
    .select({ n: sql<number>`count(*)::int`.as('matched') })
    .from(matches)
    .as('admin_product_count');
  const page = db
    .select({ id: matches.matchId, createdAt: matches.matchCreatedAt })
    .from(matches)
    .orderBy(desc(matches.matchCreatedAt), asc(matches.matchId))
    .limit(filter.limit)
    .offset(filter.offset)
    .as('admin_products_page');
  const found = await db
    .with(matches)
    .select({
      matched: counted.n,
      product: productListFields,
      sellerFirstName: users.firstName,
      sellerLastName: users.lastName,
    })
    .from(counted)
    .leftJoin(page, sql`true`)
    .leftJoin(products, eq(products.id, page.id))
    .leftJoin(users, eq(users.id, products.sellerId))
    .orderBy(desc(page.createdAt), asc(page.id));
  const n = found[0]?.matched ?? 0;
  const rows = found.flatMap(({ product, sellerFirstName, sellerLastName }) =>
    product ? [{ product, sellerFirstName, sellerLastName }] : [],
  );
  return {
    rows,
    ...(n > bound ? { total: bound, totalIsLowerBound: true } : { total: n, totalIsLowerBound: false }),
  };
}

/**
 * Users holding the driver role; those waiting for a decision first (not verified, both images
 * there), and among them those who replaced a document since their approval, latest change first;
 * then the other unverified ones, then the verified; newest first within each.
 */
export async function listDriversPage(
  db: Db,
  filter: { search: string | undefined; verified: boolean | undefined } & PageWindow,
) {
  // The role spelled in the statement, not a parameter: the drivers' queue index (migration 0036) holds the rows
  // where it is true, and a plan made for any value of a parameter could not use it
  // (docs/decisions/0030-ten-times-the-data.md, The drivers' queue in an index).
  const where = and(
    sql`'driver' = any(${users.roles})`,
    userSearch(users, filter.search),
    filter.verified === undefined ? undefined : eq(users.isVerified, filter.verified),
  );
  const hasBothImages = sql`(${users.vehicleImageUrl} is not null and ${users.licenseImageUrl} is not null)`;
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(
      asc(users.isVerified),
      desc(hasBothImages),
      sql`${users.documentsChangedAt} desc nulls last`,
      desc(users.createdAt),
      asc(users.id),
    )
    .limit(filter.limit)
    .offset(filter.offset);
  return { rows, ...(await totalOf(db, users, where, filter, Boolean(filter.search), rows.length)) };
}

/** Categories by name (case-insensitive), with how many products use each. */
export async function listCategoriesPage(db: Db, filter: { search: string | undefined } & PageWindow) {
  const where = filter.search ? ilike(categories.name, likePattern(filter.search)) : undefined;
  const rows = await db
    .select({
      id: categories.id,
      name: categories.name,
      // The kept counts (migration 0026). Spelled out: in a one-table select drizzle leaves column
      // names unqualified, and inside the subquery "category" must be the counts' own.
      productCount: sql<number>`(select coalesce(sum(pc."count"), 0)::int from "product_counts" pc where pc."category" = "categories"."name")`,
    })
    .from(categories)
    .where(where)
    .orderBy(sql`lower(${categories.name})`, asc(categories.id))
    .limit(filter.limit)
    .offset(filter.offset);
  return { rows, ...(await totalOf(db, categories, where, filter, false, rows.length)) };
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * The rows of `kind` created in [from, to) (docs/decisions/0030-ten-times-the-data.md, The summary in one
 * read): the kept created_counts (migration 0036) of the hours from the one `from` ends in to the one `to`
 * ends in, plus the rows from `from` to its hour's end, less those from `to` to its hour's end, each counted
 * in the table's index on the creation time by `edge`. Rounding both ends up, not down, leaves the range
 * after `to` to count: when `to` is now, nothing, however many rows this hour has.
 */
function createdIn(
  kind: 'users' | 'products' | 'orders',
  figure: 'count' | 'platform_fee',
  from: Date,
  to: Date,
  edge: (from: Date, to: Date) => SQL,
): SQL {
  const fromHour = Math.ceil(from.getTime() / HOUR_MS);
  const toHour = Math.ceil(to.getTime() / HOUR_MS);
  const kept = sql`(select coalesce(sum(${sql.identifier(figure)}), 0) from ${createdCounts}
    where ${createdCounts.kind} = ${kind} and ${createdCounts.hour} >= ${fromHour} and ${createdCounts.hour} < ${toHour})`;
  return sql`(${kept} + ${edge(from, new Date(fromHour * HOUR_MS))} - ${edge(to, new Date(toHour * HOUR_MS))})`;
}

/**
 * The summary cards' figures and what their trends compare, in one statement
 * (docs/decisions/0030-ten-times-the-data.md, The summary in one read): users from their kept count
 * (migration 0036), products and orders from the kept counts and totals (migrations 0026 and 0032;
 * docs/decisions/0027-kept-order-totals.md, What is kept). Revenue and gross are net of refunds of orders
 * not cancelled, summed over the refunds and fee refunds themselves rather than looked up order by order.
 *
 * The trends (docs/rules/screens-work.md, Admin screens): for the two weeks, the users who signed up, the
 * orders placed, the products listed and the platform fees of the orders placed that are not cancelled,
 * each by when the row was created: kept whole hours, and the part-hours at the ends read from each table's
 * index on the creation time (the orders' carries their status and fee: docs/decisions/0027-kept-order-totals.md,
 * The two weeks).
 */
export async function readSummary(db: Db, windows: TrendWindows) {
  const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;
  const rangeOf = (column: AnyPgColumn, from: Date, to: Date) =>
    sql`${column} >= ${at(from)} and ${column} < ${at(to)}`;
  const created = (
    kind: 'users' | 'products' | 'orders',
    table: typeof users | typeof products | typeof orders,
    from: Date,
    to: Date,
  ) =>
    createdIn(
      kind,
      'count',
      from,
      to,
      (a, b) => sql`(select count(*) from ${table} where ${rangeOf(table.createdAt, a, b)})`,
    );
  const placed = (from: Date, to: Date) => created('orders', orders, from, to);
  const earned = (from: Date, to: Date) =>
    createdIn(
      'orders',
      'platform_fee',
      from,
      to,
      (a, b) =>
        sql`(select coalesce(sum(${orders.platformFee}), 0) from ${orders}
          where ${rangeOf(orders.createdAt, a, b)} and ${orders.status} <> 'cancelled')`,
    );
  const { lastWeekFrom, thisWeekFrom, to } = windows;
  const [row] = await rowsOf<{
    users: number;
    products: number;
    orders: number;
    revenue: string;
    gross: string;
    usersThisWeek: number;
    usersLastWeek: number;
    productsThisWeek: number;
    productsLastWeek: number;
    ordersThisWeek: number;
    ordersLastWeek: number;
    revenueThisWeek: string;
    revenueLastWeek: string;
  }>(
    db,
    sql`select (select coalesce(sum(${userCounts.count}), 0)::int from ${userCounts}) as "users",
      (select coalesce(sum(${productCounts.count}), 0)::int from ${productCounts}) as "products",
      totals."orders", totals."revenue", totals."gross",
      ${created('users', users, thisWeekFrom, to)}::int as "usersThisWeek",
      ${created('users', users, lastWeekFrom, thisWeekFrom)}::int as "usersLastWeek",
      ${created('products', products, thisWeekFrom, to)}::int as "productsThisWeek",
      ${created('products', products, lastWeekFrom, thisWeekFrom)}::int as "productsLastWeek",
      ${placed(thisWeekFrom, to)}::int as "ordersThisWeek",
      ${placed(lastWeekFrom, thisWeekFrom)}::int as "ordersLastWeek",
      ${earned(thisWeekFrom, to)}::text as "revenueThisWeek",
      ${earned(lastWeekFrom, thisWeekFrom)}::text as "revenueLastWeek"
    from (select coalesce(sum(ot."orders"), 0)::int as "orders",
      -- Net of refunds of finished orders: the fee given back, and the total refunded
      -- (docs/decisions/0018-money-against-stripe.md). A fee earned again when a refund failed counts again
      -- (docs/decisions/0022-money-in-combinations.md).
      (coalesce(sum(ot."platform_fee") filter (where ot."status" <> 'cancelled'), 0)
        - (select coalesce(sum(le.amount), 0) from ledger_entries le join orders o on o.id = le.order_id
            where le.kind = 'platform_fee_refund' and o.status <> 'cancelled')
        + (select coalesce(sum(le.amount), 0) from ledger_entries le join orders o on o.id = le.order_id
            where le.kind = 'platform_fee_restored' and o.status <> 'cancelled'))::text as "revenue",
      (coalesce(sum(ot."total") filter (where ot."status" <> 'cancelled'), 0)
        - (select coalesce(sum(r.amount), 0) from refunds r join orders o on o.id = r.order_id
            where o.status <> 'cancelled' and r.undone_at is null))::text as "gross"
      from ${orderTotals} ot) totals`,
  );
  return {
    users: row?.users ?? 0,
    products: row?.products ?? 0,
    orders: row?.orders ?? 0,
    revenue: row?.revenue ?? '0',
    gross: row?.gross ?? '0',
    weeks: {
      users: { thisWeek: row?.usersThisWeek ?? 0, lastWeek: row?.usersLastWeek ?? 0 },
      products: { thisWeek: row?.productsThisWeek ?? 0, lastWeek: row?.productsLastWeek ?? 0 },
      orders: { thisWeek: row?.ordersThisWeek ?? 0, lastWeek: row?.ordersLastWeek ?? 0 },
      revenue: { thisWeek: row?.revenueThisWeek ?? '0', lastWeek: row?.revenueLastWeek ?? '0' },
    },
  };
}

/** One user's row for their details; undefined when there is none. */
export async function findUser(db: Db, id: string) {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

export async function countAddresses(db: Db, userId: string): Promise<number> {
  return db.$count(addresses, eq(addresses.userId, userId));
}
