import type { Db } from '../../db/client';
import type { AdminOrdersCsvQuery, AdminProductsCsvQuery, AdminUsersCsvQuery } from '../../../domain/admin';
import { formatCents, parseCents } from '../../../domain/money';
import { fulfilmentLabel } from '../../../domain/order-status';
import { csvCell } from '../../../domain/payouts';
import { nameOf, toAdminOrder, toAdminUser } from './admin-views';
import { listOrdersBatch, listProductsBatch, listUsersBatch, type ListCursor } from './admin-export.queries';
import { orderFilterOf, productFilterOf, userFilterOf } from './admin.service';

/**
 * The admin exports (docs/rules/known-differences.md, Admin): GET /api/admin/orders.csv, users.csv and
 * products.csv answer every row their list's filters match, newest first, read from the database a
 * batch at a time and sent as they come. Every cell goes through csvCell, so a cell a spreadsheet
 * would run as a formula is defused.
 */

const BATCH = 1000;

type Cell = string | number | null;

const money = (value: string) => formatCents(parseCents(value));

/** The header line, then a line per row, batch after batch until one comes back short. */
async function* csvLines<Row extends { cursor: ListCursor }>(
  header: readonly string[],
  readBatch: (cursor: ListCursor | undefined, limit: number) => Promise<Row[]>,
  cellsOf: (row: Row) => Cell[],
): AsyncGenerator<string> {
  yield `${header.map(csvCell).join(',')}\r\n`;
  let cursor: ListCursor | undefined;
  for (;;) {
    const rows = await readBatch(cursor, BATCH);
    // One chunk a batch: a write per row would cost more than the rows.
    if (rows.length > 0) yield rows.map((row) => `${cellsOf(row).map(csvCell).join(',')}\r\n`).join('');
    const last = rows.at(-1);
    if (!last || rows.length < BATCH) return;
    cursor = last.cursor;
  }
}

const ORDER_COLUMNS = [
  'order_number',
  'created_at',
  'status',
  'fulfilment',
  'buyer_name',
  'buyer_email',
  'seller_name',
  'seller_email',
  'driver_name',
  'driver_email',
  'subtotal',
  'delivery_fee',
  'platform_fee',
  'total',
  'flag',
] as const;

/** GET /api/admin/orders.csv: the orders list's filters (days of the marketplace time zone). */
export function ordersCsvLines(db: Db, query: AdminOrdersCsvQuery, timeZone: string): AsyncGenerator<string> {
  const filter = orderFilterOf(query, timeZone);
  return csvLines(
    ORDER_COLUMNS,
    (cursor, limit) => listOrdersBatch(db, filter, cursor, limit),
    (row) => {
      const listed = toAdminOrder(row);
      return [
        listed.orderNumber,
        listed.createdAt,
        listed.status,
        fulfilmentLabel(row.order),
        listed.buyerName,
        row.buyer.email,
        listed.sellerName,
        row.seller.email,
        row.driver ? nameOf(row.driver.firstName, row.driver.lastName, 'driver') : null,
        row.driver?.email ?? null,
        money(row.order.productSubtotal),
        money(row.order.deliveryFee),
        listed.platformFee,
        listed.total,
        listed.flag,
      ];
    },
  );
}

const USER_COLUMNS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'role',
  'roles',
  'verified',
  'suspended_at',
  'created_at',
] as const;

/** GET /api/admin/users.csv: the users list's filters; the granted roles joined by ";". */
export function usersCsvLines(db: Db, query: AdminUsersCsvQuery): AsyncGenerator<string> {
  const filter = userFilterOf(query);
  return csvLines(
    USER_COLUMNS,
    (cursor, limit) => listUsersBatch(db, filter, cursor, limit),
    ({ user }) => {
      const listed = toAdminUser(user);
      return [
        listed.id,
        listed.email,
        listed.firstName,
        listed.lastName,
        listed.role,
        listed.roles.join(';'),
        String(listed.isVerified),
        user.suspendedAt?.toISOString() ?? null,
        listed.createdAt,
      ];
    },
  );
}

const PRODUCT_COLUMNS = [
  'id',
  'name',
  'category',
  'price',
  'stock',
  'available',
  'seller_name',
  'seller_email',
  'created_at',
] as const;

/** GET /api/admin/products.csv: the products list's filters, available or not. */
export function productsCsvLines(db: Db, query: AdminProductsCsvQuery): AsyncGenerator<string> {
  const filter = productFilterOf(query);
  return csvLines(
    PRODUCT_COLUMNS,
    (cursor, limit) => listProductsBatch(db, filter, cursor, limit),
    ({ product, seller }) => [
      product.id,
      product.name,
      product.category,
      money(product.price),
      product.stock,
      String(product.available),
      nameOf(seller.firstName, seller.lastName, 'seller'),
      seller.email,
      product.createdAt.toISOString(),
    ],
  );
}
