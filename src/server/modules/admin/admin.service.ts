import type { Db } from '../../db/client';
import {
  ADMIN_PAGE_SIZE,
  offsetOf,
  orderDateRangeOf,
  pageCountOf,
  USER_DETAIL_ORDER_COUNT,
  type AdminOrdersCsvQuery,
  type AdminProductsCsvQuery,
  type AdminUserDetail,
  type AdminUsersCsvQuery,
  type AdminCategoriesQuery,
  type AdminCategory,
  type AdminDriver,
  type AdminDriversQuery,
  type AdminOrder,
  type AdminOrdersQuery,
  type AdminProduct,
  type AdminProductsQuery,
  type AdminSummary,
  type AdminUser,
  type AdminUsersQuery,
  type Page,
} from '../../../domain/admin';
import { formatCents, parseCents } from '../../../domain/money';
import { trendWindowsEndingAt, weekOverWeekPercent } from '../../../domain/trends';
import { AppError } from '../../platform/errors';
import { listLatestAdminActions } from '../audit/audit.service';
import {
  DRIVER_DECISION_ACTIONS,
  toAdminDriver,
  toAdminOrder,
  toAdminProduct,
  toAdminUser,
  toAdminUserDetail,
} from './admin-views';
import {
  countAddresses,
  findUser,
  listCategoriesPage,
  listDriversPage,
  listOrdersPage,
  listProductsPage,
  listUsersPage,
  readSummary,
  type ListTotal,
  type OrderFilter,
  type ProductFilter,
  type UserFilter,
} from './admin.queries';

/**
 * The admin dashboard's reads (docs/rules/known-differences.md, Admin). The routes are for admins only (the
 * access hook answers 403 to anyone else), so these need no further check: an admin sees every row.
 */

function pageFrom<T>(items: T[], counted: ListTotal, page: number): Page<T> {
  const { total, totalIsLowerBound } = counted;
  return { items, total, page, pageSize: ADMIN_PAGE_SIZE, pageCount: pageCountOf(total), totalIsLowerBound };
}

const window = (page: number) => ({ limit: ADMIN_PAGE_SIZE, offset: offsetOf(page) });

/** The users list's filters as the database reads them (the list and its export). */
export function userFilterOf(query: AdminUsersCsvQuery): UserFilter {
  return { search: query.search, role: query.role === 'all' ? undefined : query.role };
}

/** GET /api/admin/users: newest first; search by name or email, filter by a granted role. */
export async function listUsers(db: Db, query: AdminUsersQuery): Promise<Page<AdminUser>> {
  const { rows, ...total } = await listUsersPage(db, { ...userFilterOf(query), ...window(query.page) });
  return pageFrom(rows.map(toAdminUser), total, query.page);
}

/**
 * The orders list's filters as the database reads them (the list and its export): the days are
 * days of the marketplace time zone, both ends included (docs/rules/known-differences.md, Admin).
 */
export function orderFilterOf(query: AdminOrdersCsvQuery, timeZone: string): OrderFilter {
  const range = orderDateRangeOf(query, timeZone);
  return {
    search: query.search,
    status: query.status === 'all' ? undefined : query.status,
    buyer: query.buyer,
    seller: query.seller,
    driver: query.driver,
    from: range.from,
    before: range.before,
  };
}

/**
 * GET /api/admin/orders: newest first; the order number, the status, each party by name or email,
 * and the days placed on.
 */
export async function listOrders(
  db: Db,
  query: AdminOrdersQuery,
  timeZone: string,
): Promise<Page<AdminOrder>> {
  const { rows, ...total } = await listOrdersPage(db, {
    ...orderFilterOf(query, timeZone),
    ...window(query.page),
  });
  return pageFrom(rows.map(toAdminOrder), total, query.page);
}

/** The products list's filters as the database reads them (the list and its export). */
export function productFilterOf(query: AdminProductsCsvQuery): ProductFilter {
  return {
    search: query.search,
    category: query.category && query.category !== 'All' ? query.category : undefined,
    status: query.status,
  };
}

/** GET /api/admin/products: every product, newest first; search, category, Active/Inactive. */
export async function listProducts(db: Db, query: AdminProductsQuery): Promise<Page<AdminProduct>> {
  const { rows, ...total } = await listProductsPage(db, { ...productFilterOf(query), ...window(query.page) });
  return pageFrom(rows.map(toAdminProduct), total, query.page);
}

/**
 * GET /api/admin/users/{id}: the user's details with their orders as buyer, seller and driver,
 * each counted, the newest 10 of each shown (docs/rules/known-differences.md, Admin).
 */
export async function getUserDetail(db: Db, id: string): Promise<AdminUserDetail> {
  const row = await findUser(db, id);
  if (!row) throw new AppError('not_found', 'User not found');
  const ordersAs = async (filter: OrderFilter) => {
    const { rows, total } = await listOrdersPage(db, {
      ...filter,
      limit: USER_DETAIL_ORDER_COUNT,
      offset: 0,
    });
    return { count: total, latest: rows.map(toAdminOrder) };
  };
  const [addressCount, asBuyer, asSeller, asDriver] = await Promise.all([
    countAddresses(db, id),
    ordersAs({ buyerId: id }),
    ordersAs({ sellerId: id }),
    ordersAs({ driverId: id }),
  ]);
  return toAdminUserDetail(row, { addressCount, orders: { asBuyer, asSeller, asDriver } });
}

/** GET /api/admin/drivers: users holding the driver role, with their images and last decision. */
export async function listDrivers(db: Db, query: AdminDriversQuery): Promise<Page<AdminDriver>> {
  const { rows, ...total } = await listDriversPage(db, {
    search: query.search,
    verified: query.status === 'all' ? undefined : query.status === 'verified',
    ...window(query.page),
  });
  const decisions = await listLatestAdminActions(
    db,
    'user',
    rows.map((row) => row.id),
    DRIVER_DECISION_ACTIONS,
  );
  const decisionOf = new Map(decisions.map((decision) => [decision.targetId, decision]));
  return pageFrom(
    rows.map((row) => toAdminDriver(row, decisionOf.get(row.id))),
    total,
    query.page,
  );
}

/** GET /api/admin/categories: by name, with how many products use each. */
export async function listCategories(db: Db, query: AdminCategoriesQuery): Promise<Page<AdminCategory>> {
  const { rows, ...total } = await listCategoriesPage(db, { search: query.search, ...window(query.page) });
  return pageFrom(rows, total, query.page);
}

/**
 * GET /api/admin/summary: Total Users, Total Orders, Total Products, and Total Revenue, the platform's fees
 * of paid, not cancelled orders, with their gross value (docs/rules/known-differences.md, Admin).
 */
export async function getSummary(db: Db, now: Date): Promise<AdminSummary> {
  const figures = await readSummary(db, trendWindowsEndingAt(now));
  const { weeks } = figures;
  return {
    totalUsers: figures.users,
    totalOrders: figures.orders,
    totalProducts: figures.products,
    totalRevenue: formatCents(parseCents(figures.revenue)),
    grossOrderValue: formatCents(parseCents(figures.gross)),
    trends: {
      users: weekOverWeekPercent(weeks.users.thisWeek, weeks.users.lastWeek),
      orders: weekOverWeekPercent(weeks.orders.thisWeek, weeks.orders.lastWeek),
      products: weekOverWeekPercent(weeks.products.thisWeek, weeks.products.lastWeek),
      revenue: weekOverWeekPercent(parseCents(weeks.revenue.thisWeek), parseCents(weeks.revenue.lastWeek)),
    },
  };
}
