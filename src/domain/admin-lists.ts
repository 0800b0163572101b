import { ROLES } from './roles';

/**
 * What the admin's lists share without a schema: the page size, a page's shape and the role filter.
 * Kept apart from `admin.ts` (which re-exports the page size, shape and helpers) so the admin page shows its first list without
 * building the admin schemas, which load with its first request (docs/decisions/0014-first-load.md).
 */

/** Every admin list shows 10 rows a page (docs/rules/known-differences.md, Admin). */
export const ADMIN_PAGE_SIZE = 10;

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
  totalIsLowerBound: boolean;
}

/** The rows to skip for a page (pages start at 1). */
export function offsetOf(page: number, pageSize = ADMIN_PAGE_SIZE): number {
  return (page - 1) * pageSize;
}

export function pageCountOf(total: number, pageSize = ADMIN_PAGE_SIZE): number {
  return Math.ceil(total / pageSize);
}

export const ROLE_FILTERS = ['all', ...ROLES] as const;
