import type { Db } from '../../db/client';
import {
  ADMIN_PAGE_SIZE,
  offsetOf,
  pageCountOf,
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
import { listLatestAdminActions } from '../audit/audit.service';
import {
  DRIVER_DECISION_ACTIONS,
  toAdminDriver,
  toAdminOrder,
  toAdminProduct,
  toAdminUser,
} from './admin-views';
import {
  countSummary,
  listCategoriesPage,
  listDriversPage,
  listOrdersPage,
  listProductsPage,
  listUsersPage,
} from './admin.queries';

/**
 * The admin dashboard's reads (docs/product-rules.md, Admin). The routes are for admins only (the
 * access hook answers 403 to anyone else), so these need no further check: an admin sees every row.
 */

function pageFrom<T>(items: T[], total: number, page: number): Page<T> {
  return { items, total, page, pageSize: ADMIN_PAGE_SIZE, pageCount: pageCountOf(total) };
}

const window = (page: number) => ({ limit: ADMIN_PAGE_SIZE, offset: offsetOf(page) });

/** GET /api/admin/users: newest first; search by name or email, filter by a granted role. */
export async function listUsers(db: Db, query: AdminUsersQuery): Promise<Page<AdminUser>> {
  const { rows, total } = await listUsersPage(db, {
    search: query.search,
    role: query.role === 'all' ? undefined : query.role,
    ...window(query.page),
  });
  return pageFrom(rows.map(toAdminUser), total, query.page);
}

/** GET /api/admin/orders: newest first; search by order number, filter by status. */
export async function listOrders(db: Db, query: AdminOrdersQuery): Promise<Page<AdminOrder>> {
  const { rows, total } = await listOrdersPage(db, {
    search: query.search,
    status: query.status === 'all' ? undefined : query.status,
    ...window(query.page),
  });
  return pageFrom(rows.map(toAdminOrder), total, query.page);
}

/** GET /api/admin/products: every product, newest first; search, category, Active/Inactive. */
export async function listProducts(db: Db, query: AdminProductsQuery): Promise<Page<AdminProduct>> {
  const { rows, total } = await listProductsPage(db, {
    search: query.search,
    category: query.category && query.category !== 'All' ? query.category : undefined,
    status: query.status,
    ...window(query.page),
  });
  return pageFrom(rows.map(toAdminProduct), total, query.page);
}

/** GET /api/admin/drivers: users holding the driver role, with their images and last decision. */
export async function listDrivers(db: Db, query: AdminDriversQuery): Promise<Page<AdminDriver>> {
  const { rows, total } = await listDriversPage(db, {
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
  const { rows, total } = await listCategoriesPage(db, { search: query.search, ...window(query.page) });
  return pageFrom(rows, total, query.page);
}

/**
 * GET /api/admin/summary: Total Users, Total Orders, Total Products, and Total Revenue, the
 * platform's fees of paid, not cancelled orders, with their gross value (docs/product-rules.md, Admin).
 */
export async function getSummary(db: Db): Promise<AdminSummary> {
  const figures = await countSummary(db);
  return {
    totalUsers: figures.users,
    totalOrders: figures.orders,
    totalProducts: figures.products,
    totalRevenue: formatCents(parseCents(figures.revenue)),
    grossOrderValue: formatCents(parseCents(figures.gross)),
  };
}
