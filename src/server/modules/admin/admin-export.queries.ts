import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { orders, products, users } from '../../db/schema';
import {
  orderListWhere,
  productListWhere,
  selectOrderRows,
  userListWhere,
  type OrderFilter,
  type ProductFilter,
  type UserFilter,
} from './admin.queries';

/**
 * The admin exports read their list's rows in batches, in the list's order (newest first), each
 * batch starting after the last row of the one before: every matching row once, however many.
 */

/**
 * Where a batch ends. The time is the database's own text of the timestamp: a JavaScript Date keeps
 * milliseconds only, and rows stored within the same millisecond would be skipped or read twice.
 */
export interface ListCursor {
  createdAt: string;
  id: string;
}

/** Rows after the cursor in the order "created_at desc, id asc". */
function after(createdAt: AnyPgColumn, id: AnyPgColumn, cursor: ListCursor | undefined): SQL | undefined {
  if (!cursor) return undefined;
  const at = sql`${cursor.createdAt}::timestamptz`;
  return sql`(${createdAt} < ${at} or (${createdAt} = ${at} and ${id} > ${cursor.id}))`;
}

export async function listOrdersBatch(
  db: Db,
  filter: OrderFilter,
  cursor: ListCursor | undefined,
  limit: number,
) {
  return selectOrderRows(db)
    .where(and(orderListWhere(filter), after(orders.createdAt, orders.id, cursor)))
    .orderBy(desc(orders.createdAt), asc(orders.id))
    .limit(limit);
}

export async function listUsersBatch(
  db: Db,
  filter: UserFilter,
  cursor: ListCursor | undefined,
  limit: number,
) {
  return db
    .select({
      user: users,
      cursor: { createdAt: sql<string>`${users.createdAt}::text`, id: users.id },
    })
    .from(users)
    .where(and(userListWhere(filter), after(users.createdAt, users.id, cursor)))
    .orderBy(desc(users.createdAt), asc(users.id))
    .limit(limit);
}

export async function listProductsBatch(
  db: Db,
  filter: ProductFilter,
  cursor: ListCursor | undefined,
  limit: number,
) {
  return db
    .select({
      product: {
        id: products.id,
        name: products.name,
        category: products.category,
        price: products.price,
        stock: products.stock,
        available: products.available,
        createdAt: products.createdAt,
      },
      seller: { firstName: users.firstName, lastName: users.lastName, email: users.email },
      cursor: { createdAt: sql<string>`${products.createdAt}::text`, id: products.id },
    })
    .from(products)
    .innerJoin(users, eq(users.id, products.sellerId))
    .where(and(productListWhere(filter), after(products.createdAt, products.id, cursor)))
    .orderBy(desc(products.createdAt), asc(products.id))
    .limit(limit);
}
