import { and, asc, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { categories, orders, products, users } from '../../db/schema';
import type { Role } from '../../../domain/roles';
import type { OrderStatus } from '../../../domain/order-status';
import type { ProductStatusFilter } from '../../../domain/admin';

/**
 * The admin lists (docs/product-rules.md, Admin): every filter, search, count and page runs in the
 * database. Each list answers one page of rows and the total matching the same filters.
 */

export interface PageWindow {
  limit: number;
  offset: number;
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

export async function listUsersPage(
  db: Db,
  filter: { search: string | undefined; role: Role | undefined } & PageWindow,
) {
  const where = and(userSearch(users, filter.search), filter.role ? hasGrantedRole(filter.role) : undefined);
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), asc(users.id))
    .limit(filter.limit)
    .offset(filter.offset);
  const [total] = await db.select({ n: count() }).from(users).where(where);
  return { rows, total: total?.n ?? 0 };
}

const buyers = alias(users, 'buyer');
const sellers = alias(users, 'seller');

export async function listOrdersPage(
  db: Db,
  filter: { search: string | undefined; status: OrderStatus | undefined } & PageWindow,
) {
  const where = and(
    filter.search ? ilike(orders.orderNumber, containing(filter.search)) : undefined,
    filter.status ? eq(orders.status, filter.status) : undefined,
  );
  const rows = await db
    .select({
      order: {
        id: orders.id,
        orderNumber: orders.orderNumber,
        status: orders.status,
        isPickup: orders.isPickup,
        sellerDelivery: orders.sellerDelivery,
        total: orders.total,
        platformFee: orders.platformFee,
        createdAt: orders.createdAt,
      },
      buyerFirstName: buyers.firstName,
      buyerLastName: buyers.lastName,
      sellerFirstName: sellers.firstName,
      sellerLastName: sellers.lastName,
    })
    .from(orders)
    .innerJoin(buyers, eq(buyers.id, orders.buyerId))
    .innerJoin(sellers, eq(sellers.id, orders.sellerId))
    .where(where)
    .orderBy(desc(orders.createdAt), asc(orders.id))
    .limit(filter.limit)
    .offset(filter.offset);
  const [total] = await db.select({ n: count() }).from(orders).where(where);
  return { rows, total: total?.n ?? 0 };
}

export async function listProductsPage(
  db: Db,
  filter: {
    search: string | undefined;
    category: string | undefined;
    status: ProductStatusFilter;
  } & PageWindow,
) {
  const where = and(
    filter.search ? ilike(products.name, containing(filter.search)) : undefined,
    filter.category ? eq(products.category, filter.category) : undefined,
    filter.status === 'all' ? undefined : eq(products.available, filter.status === 'active'),
  );
  const rows = await db
    .select({
      product: {
        id: products.id,
        name: products.name,
        category: products.category,
        price: products.price,
        stock: products.stock,
        available: products.available,
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
  const [total] = await db.select({ n: count() }).from(products).where(where);
  return { rows, total: total?.n ?? 0 };
}

/**
 * Users holding the driver role; those waiting for a decision first (not verified, both images
 * there), then the other unverified ones, then the verified; newest first within each.
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
    .orderBy(asc(users.isVerified), desc(hasBothImages), desc(users.createdAt), asc(users.id))
    .limit(filter.limit)
    .offset(filter.offset);
  const [total] = await db.select({ n: count() }).from(users).where(where);
  return { rows, total: total?.n ?? 0 };
}

/** Categories by name (case-insensitive), with how many products use each. */
export async function listCategoriesPage(db: Db, filter: { search: string | undefined } & PageWindow) {
  const where = filter.search ? ilike(categories.name, containing(filter.search)) : undefined;
  const rows = await db
    .select({
      id: categories.id,
      name: categories.name,
      // Spelled out: in a one-table select drizzle leaves column names unqualified, and inside the
      // subquery "name" would then be the product's own name.
      productCount: sql<number>`(select count(*)::int from "products" p where p."category" = "categories"."name")`,
    })
    .from(categories)
    .where(where)
    .orderBy(sql`lower(${categories.name})`, asc(categories.id))
    .limit(filter.limit)
    .offset(filter.offset);
  const [total] = await db.select({ n: count() }).from(categories).where(where);
  return { rows, total: total?.n ?? 0 };
}

/** The summary cards' figures, each counted by the database. */
export async function countSummary(db: Db) {
  const [userCount] = await db.select({ n: count() }).from(users);
  const [productCount] = await db.select({ n: count() }).from(products);
  const [orderFigures] = await db
    .select({
      n: count(),
      revenue: sql<string>`coalesce(sum(${orders.platformFee}) filter (where ${orders.status} <> 'cancelled'), 0)::text`,
      gross: sql<string>`coalesce(sum(${orders.total}) filter (where ${orders.status} <> 'cancelled'), 0)::text`,
    })
    .from(orders);
  return {
    users: userCount?.n ?? 0,
    products: productCount?.n ?? 0,
    orders: orderFigures?.n ?? 0,
    revenue: orderFigures?.revenue ?? '0',
    gross: orderFigures?.gross ?? '0',
  };
}
