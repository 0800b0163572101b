import { and, asc, count, desc, eq, gte, ilike, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows-of';
import { addresses, categories, orderTotals, orders, productCounts, products, users } from '../../db/schema';
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

/** The rows of `table` matching `where`: all of them, or when `searched` up to the limit past the page's start. */
async function totalOf(
  db: Db,
  table: PgTable,
  where: SQL | undefined,
  window: PageWindow,
  searched: boolean,
): Promise<ListTotal> {
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

/** A substring search where `%`, `_` and `\` are plain text. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const fullName = (table: typeof users) =>
  sql`coalesce(${table.firstName}, '') || ' ' || coalesce(${table.lastName}, '')`;

/** Name ("first last", either part) or email, case-insensitive. */
function userSearch(table: typeof users, search: string | undefined): SQL | undefined {
  if (!search) return undefined;
  const pattern = containing(search);
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
  return { rows, ...(await totalOf(db, users, where, filter, Boolean(filter.search))) };
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
    filter.search ? ilike(orders.orderNumber, containing(filter.search)) : undefined,
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
  return { rows, ...(await totalOf(db, orders, where, filter, searched)) };
}

export interface ProductFilter {
  search: string | undefined;
  category: string | undefined;
  status: ProductStatusFilter;
}

/** The products list's filters, shared by its pages and its export. */
export function productListWhere(filter: ProductFilter): SQL | undefined {
  return and(
    filter.search ? ilike(products.name, containing(filter.search)) : undefined,
    filter.category ? eq(products.category, filter.category) : undefined,
    filter.status === 'all' ? undefined : eq(products.available, filter.status === 'active'),
  );
}

export async function listProductsPage(db: Db, filter: ProductFilter & PageWindow) {
  const where = productListWhere(filter);
  const rows = await db
    .select({
      product: {
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
      },
      sellerFirstName: users.firstName,
      sellerLastName: users.lastName,
    })
    .from(products)
    .innerJoin(users, eq(users.id, products.sellerId))
    .where(where)
    .orderBy(desc(products.createdAt), asc(products.id))
    .limit(filter.limit)
    .offset(filter.offset);
  if (filter.search) return { rows, ...(await totalOf(db, products, where, filter, true)) };
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
 * Users holding the driver role; those waiting for a decision first (not verified, both images
 * there), and among them those who replaced a document since their approval, latest change first;
 * then the other unverified ones, then the verified; newest first within each.
 */
export async function listDriversPage(
  db: Db,
  filter: { search: string | undefined; verified: boolean | undefined } & PageWindow,
) {
  const where = and(
    hasGrantedRole('driver'),
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
  return { rows, ...(await totalOf(db, users, where, filter, Boolean(filter.search))) };
}

/** Categories by name (case-insensitive), with how many products use each. */
export async function listCategoriesPage(db: Db, filter: { search: string | undefined } & PageWindow) {
  const where = filter.search ? ilike(categories.name, containing(filter.search)) : undefined;
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
  return { rows, ...(await totalOf(db, categories, where, filter, false)) };
}

/**
 * The summary cards' figures: users counted by the database, products and orders from the kept
 * counts and totals (migrations 0026 and 0032; docs/decisions/0027-kept-order-totals.md, What is kept).
 * Revenue and gross are net of refunds of orders not cancelled, summed over the refunds and fee
 * refunds themselves rather than looked up order by order.
 */
export async function countSummary(db: Db) {
  const [userCount] = await db.select({ n: count() }).from(users);
  const [productCount] = await db
    .select({ n: sql<number>`coalesce(sum(${productCounts.count}), 0)::int` })
    .from(productCounts);
  const [orderFigures] = await db
    .select({
      n: sql<number>`coalesce(sum(${orderTotals.orders}), 0)::int`,
      // Net of refunds of finished orders: the fee given back, and the total refunded
      // (docs/decisions/0018-money-against-stripe.md). A fee earned again when a refund failed counts again
      // (docs/decisions/0022-money-in-combinations.md).
      revenue: sql<string>`(coalesce(sum(${orderTotals.platformFee}) filter (where ${orderTotals.status} <> 'cancelled'), 0)
        - (select coalesce(sum(le.amount), 0) from ledger_entries le join orders o on o.id = le.order_id
            where le.kind = 'platform_fee_refund' and o.status <> 'cancelled')
        + (select coalesce(sum(le.amount), 0) from ledger_entries le join orders o on o.id = le.order_id
            where le.kind = 'platform_fee_restored' and o.status <> 'cancelled'))::text`,
      gross: sql<string>`(coalesce(sum(${orderTotals.total}) filter (where ${orderTotals.status} <> 'cancelled'), 0)
        - (select coalesce(sum(r.amount), 0) from refunds r join orders o on o.id = r.order_id
            where o.status <> 'cancelled' and r.undone_at is null))::text`,
    })
    .from(orderTotals);
  return {
    users: userCount?.n ?? 0,
    products: productCount?.n ?? 0,
    orders: orderFigures?.n ?? 0,
    revenue: orderFigures?.revenue ?? '0',
    gross: orderFigures?.gross ?? '0',
  };
}

/**
 * What the summary cards' trends compare (docs/rules/screens-work.md, Admin screens): for the two weeks,
 * the users who signed up, the orders placed, the products listed and the platform fees of the
 * orders placed that are not cancelled, each counted by when the row was created. Each week is a
 * range of the table's index on the creation time (the orders' carries their status and fee), not a
 * pass over the whole table (docs/decisions/0027-kept-order-totals.md, The two weeks).
 */
export async function countSummaryWeeks(db: Db, windows: TrendWindows) {
  const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;
  const thisWeek = (column: AnyPgColumn) =>
    sql`${column} >= ${at(windows.thisWeekFrom)} and ${column} < ${at(windows.to)}`;
  const lastWeek = (column: AnyPgColumn) =>
    sql`${column} >= ${at(windows.lastWeekFrom)} and ${column} < ${at(windows.thisWeekFrom)}`;
  // A plain count of each range: an index-only scan with nothing to test per entry.
  const [created] = await rowsOf<{
    usersThisWeek: number;
    usersLastWeek: number;
    productsThisWeek: number;
    productsLastWeek: number;
  }>(
    db,
    sql`select (select count(*)::int from ${users} where ${thisWeek(users.createdAt)}) as "usersThisWeek",
      (select count(*)::int from ${users} where ${lastWeek(users.createdAt)}) as "usersLastWeek",
      (select count(*)::int from ${products} where ${thisWeek(products.createdAt)}) as "productsThisWeek",
      (select count(*)::int from ${products} where ${lastWeek(products.createdAt)}) as "productsLastWeek"`,
  );
  const [orderWeeks] = await db
    .select({
      thisWeek: sql<number>`count(*) filter (where ${thisWeek(orders.createdAt)})::int`,
      lastWeek: sql<number>`count(*) filter (where ${lastWeek(orders.createdAt)})::int`,
      revenueThisWeek: sql<string>`coalesce(sum(${orders.platformFee}) filter (where ${thisWeek(orders.createdAt)} and ${orders.status} <> 'cancelled'), 0)::text`,
      revenueLastWeek: sql<string>`coalesce(sum(${orders.platformFee}) filter (where ${lastWeek(orders.createdAt)} and ${orders.status} <> 'cancelled'), 0)::text`,
    })
    .from(orders)
    .where(
      sql`${orders.createdAt} >= ${at(windows.lastWeekFrom)} and ${orders.createdAt} < ${at(windows.to)}`,
    );
  return {
    users: { thisWeek: created?.usersThisWeek ?? 0, lastWeek: created?.usersLastWeek ?? 0 },
    products: { thisWeek: created?.productsThisWeek ?? 0, lastWeek: created?.productsLastWeek ?? 0 },
    orders: { thisWeek: orderWeeks?.thisWeek ?? 0, lastWeek: orderWeeks?.lastWeek ?? 0 },
    revenue: { thisWeek: orderWeeks?.revenueThisWeek ?? '0', lastWeek: orderWeeks?.revenueLastWeek ?? '0' },
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
