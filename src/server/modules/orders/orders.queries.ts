import { and, asc, desc, eq, getTableColumns, inArray, or, sql, type SQL } from 'drizzle-orm';
import { builtOnce } from '../../db/built-once';
import type { Db } from '../../db/client';
import {
  addresses,
  disputes,
  orderItems,
  orders,
  liveEvents,
  orderStatusEvents,
  products,
  refunds,
} from '../../db/schema';
import { offeredSql } from '../../db/sql-offers';
import { liveEventNotifySql, liveEventRecord, type LiveEventInput } from '../../platform/live-events';
import { ACTIVE_DELIVERY_STATUSES } from '../../../domain/order-status';

export type OrderRow = typeof orders.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;
export type OrderEventRow = typeof orderStatusEvents.$inferSelect;
type AddressRow = typeof addresses.$inferSelect;

export interface OrderWithDetails {
  order: OrderRow;
  pickup: AddressRow | null;
  itemCount: number;
  /** What the order's refunds gave back so far (numeric text; docs/decisions/0018-money-against-stripe.md, Refunds). */
  refunded: string;
  /** Each refund, oldest first (created_at as the database's text). */
  refundList: Array<{ id: string; amount: string; createdAt: string }>;
}

/** Orders with the pickup address, the number of units and the sum refunded, for the API's order shape. */
function selectOrders(db: Db) {
  return db
    .select({
      order: orders,
      pickup: addresses,
      itemCount: sql<number>`(select coalesce(sum(${orderItems.quantity}), 0)::int from ${orderItems} where ${orderItems.orderId} = ${orders.id})`,
      // A failed refund was undone and is not shown (docs/decisions/0022-money-in-combinations.md).
      refunded: sql<string>`(select coalesce(sum(${refunds.amount}), 0)::text from ${refunds} where ${refunds.orderId} = ${orders.id} and ${refunds.undoneAt} is null)`,
      refundList: sql<
        OrderWithDetails['refundList']
      >`(select coalesce(json_agg(json_build_object('id', r.id, 'amount', r.amount::text, 'createdAt', r.created_at) order by r.created_at, r.id), '[]'::json) from ${refunds} r where r.order_id = "orders"."id" and r.undone_at is null)`,
    })
    .from(orders)
    .leftJoin(addresses, eq(addresses.id, orders.pickupAddressId));
}

export async function findOrderById(db: Db, id: string): Promise<OrderWithDetails | undefined> {
  const rows = await selectOrders(db).where(eq(orders.id, id)).limit(1);
  return rows[0];
}

export interface OrderFilter {
  /** Orders where this user is the buyer, the seller or the driver (any of `as`); undefined: all orders. */
  userId: string | undefined;
  as: readonly ('buyer' | 'seller' | 'driver')[];
  limit: number;
  offset: number;
}

/** Newest first. */
/**
 * A user's orders in any of their links, the list every signed-in page asks for: built once
 * (docs/decisions/0028-checkout-throughput.md, Statements built once).
 */
const listOrdersOfAnyParty = builtOnce((db) => {
  const userId = sql.placeholder('userId');
  return selectOrders(db)
    .where(or(eq(orders.buyerId, userId), eq(orders.sellerId, userId), eq(orders.driverId, userId)))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('');
});

export async function listOrders(db: Db, filter: OrderFilter): Promise<OrderWithDetails[]> {
  if (filter.userId !== undefined && filter.as.length === 3 && new Set(filter.as).size === 3)
    return listOrdersOfAnyParty(db).execute({
      userId: filter.userId,
      limit: filter.limit,
      offset: filter.offset,
    });
  let where: SQL | undefined;
  if (filter.userId !== undefined) {
    // No link asked for means no orders, never "every order".
    if (filter.as.length === 0) return [];
    const column = { buyer: orders.buyerId, seller: orders.sellerId, driver: orders.driverId };
    where = or(...filter.as.map((party) => eq(column[party], filter.userId ?? '')));
  }
  return selectOrders(db)
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(filter.limit)
    .offset(filter.offset);
}

export async function listOrdersOfPayment(db: Db, paymentId: string): Promise<OrderWithDetails[]> {
  return selectOrders(db)
    .where(eq(orders.paymentId, paymentId))
    .orderBy(asc(orders.createdAt), asc(orders.orderNumber));
}

/** Items with what the product says about itself now (name, description, image). */
/**
 * An order's number, status and people: all that conversations, reviews and delivery photos need of
 * it to decide who may see or do what (docs/rules/accounts.md, Roles and permissions).
 */
export async function findOrderParties(db: Db, orderId: string) {
  const rows = await db
    .select({
      id: orders.id,
      orderNumber: orders.orderNumber,
      status: orders.status,
      buyerId: orders.buyerId,
      sellerId: orders.sellerId,
      driverId: orders.driverId,
    })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  return rows[0];
}

export async function listItemsOfOrder(db: Db, orderId: string) {
  return db
    .select({
      item: orderItems,
      productName: products.name,
      productDescription: products.description,
      productImageUrl: products.imageUrl,
    })
    .from(orderItems)
    .innerJoin(products, eq(products.id, orderItems.productId))
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.createdAt), asc(orderItems.id));
}

export async function listEventsOfOrder(db: Db, orderId: string): Promise<OrderEventRow[]> {
  return db
    .select()
    .from(orderStatusEvents)
    .where(eq(orderStatusEvents.orderId, orderId))
    .orderBy(asc(orderStatusEvents.createdAt), asc(orderStatusEvents.id));
}

/** The columns a paid checkout writes of each order; the rest take their defaults. */
const PLACED_COLUMNS = [
  'orderNumber',
  'buyerId',
  'sellerId',
  'status',
  'isPickup',
  'sellerDelivery',
  'requiresTrailer',
  'deliveryCode',
  'productSubtotal',
  'deliveryFee',
  'total',
  'sellerEarnings',
  'driverEarnings',
  'purchasePlatformFee',
  'deliveryPlatformFee',
  'platformFee',
  'salesCommissionRate',
  'deliveryCommissionRate',
  'seller30DaySales',
  'deliveryAddress',
  'deliveryAddressId',
  'deliveryNotes',
  'pickupAddressId',
  'scheduledPickupTime',
  'paymentIntentId',
  'paymentId',
  'createdAt',
  'updatedAt',
] as const satisfies readonly (keyof typeof orders.$inferInsert)[];

type PlacedColumn = (typeof PLACED_COLUMNS)[number];

/**
 * A new order with its items (its first status event is written with it), and the live events that
 * announce it, their `orderId` filled in by the statement that inserts it.
 */
export interface NewOrder {
  values: { [K in PlacedColumn]-?: Exclude<(typeof orders.$inferInsert)[K], undefined> } & {
    orderNumber: string;
  };
  items: readonly { productId: string; quantity: number; price: string }[];
  announce: readonly LiveEventInput[];
}

/**
 * Inserts the orders of a paid checkout, their items and each one's first status event (`pending`,
 * by the buyer) in one statement, and answers the orders inserted with their pickup addresses and
 * units, as the API's order shows them (docs/decisions/0028-checkout-throughput.md,
 * Fewer statements). An order whose number is taken is not inserted, nor are its items and event: it is
 * missing from the answer and the caller draws another number. `deliveryAddressId` and
 * `pickupAddressId` are linked only if the address still exists (it may have been deleted since
 * the payment was created; the text is kept). The same statement publishes the orders' live
 * events (inserts them and sends their NOTIFY at its commit), as `publishLiveEvents` does, without a
 * statement of their own.
 */
export async function insertOrdersWithItems(
  db: Db,
  placing: readonly NewOrder[],
  event: { actorId: string; createdAt: Date },
): Promise<OrderWithDetails[]> {
  if (placing.length === 0) return [];
  const rows = await ordersWithItemsInsert(db).execute(orderInsertParams(placing, event));
  return placedDetails(placing, rows);
}

/**
 * The parameters of orderInsertCtes' statements: the orders, their items and their live events as
 * three JSON arrays (so the statement's text never changes whatever their number), the actor of
 * their first status event and its time.
 */
export function orderInsertParams(placing: readonly NewOrder[], event: { actorId: string; createdAt: Date }) {
  return {
    orders: JSON.stringify(placing.map(({ values }) => placedRecord(values))),
    items: JSON.stringify(
      placing.flatMap(({ values, items: lines }) =>
        lines.map((item) => ({
          order_number: values.orderNumber,
          product_id: item.productId,
          quantity: item.quantity,
          price: item.price,
        })),
      ),
    ),
    live: JSON.stringify(
      placing
        .flatMap(({ values, announce }) =>
          announce.map((input) => ({ order_number: values.orderNumber, ...liveEventRecord(input) })),
        )
        .map((record, position) => ({ position, ...record })),
    ),
    actorId: event.actorId,
    createdAt: event.createdAt.toISOString(),
  };
}

/** The orders a statement of orderInsertCtes inserted, as the API's order shows them. */
export function placedDetails(
  placing: readonly NewOrder[],
  rows: readonly { order: OrderRow | null; pickup: AddressRow | null }[],
): OrderWithDetails[] {
  const units = new Map(
    placing.map(({ values, items: lines }) => [
      values.orderNumber,
      lines.reduce((sum, item) => sum + item.quantity, 0),
    ]),
  );
  // A left join of no row answers null, or an object of nulls.
  return rows.flatMap(({ order, pickup }) =>
    order?.id
      ? [{ order, pickup, itemCount: units.get(order.orderNumber) ?? 0, refunded: '0', refundList: [] }]
      : [],
  );
}

const orderColumns = getTableColumns(orders);

/** An order's values as a record of `jsonb_to_recordset`: keyed by column name, dates as ISO text. */
function placedRecord(values: NewOrder['values']): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const key of PLACED_COLUMNS) {
    const value = values[key];
    record[orderColumns[key].name] = value instanceof Date ? value.toISOString() : value;
  }
  return record;
}

/**
 * The CTEs that insert a paid checkout's orders (from orderInsertParams), their items, each one's
 * first status event and their live events, and send the events' NOTIFY; a statement must ask for
 * `live_notified` (a query that is not a write runs only when asked for). `when` is a condition
 * the orders are inserted under (none are otherwise). An order whose number is taken is skipped
 * (`skip`: missing from what `inserted` returns, the caller draws another number) or fails the
 * whole statement (`fail`: a unique violation of orders_number_unique, for a statement that must
 * not half happen).
 */
export function orderInsertCtes(db: Db, options: { when?: SQL; numberTaken: 'skip' | 'fail' }) {
  const column = (key: PlacedColumn) => sql.raw(`"${orderColumns[key].name}"`);
  const given = (key: PlacedColumn) => sql.raw(`given."${orderColumns[key].name}"`);
  const ifAddressExists = (key: PlacedColumn) =>
    sql`(select ${addresses.id} from ${addresses} where ${addresses.id} = ${given(key)})`;
  const insert = sql`insert into ${orders} (${sql.join(PLACED_COLUMNS.map(column), sql`, `)})
    select ${sql.join(
      PLACED_COLUMNS.map((key) =>
        key === 'deliveryAddressId' || key === 'pickupAddressId' ? ifAddressExists(key) : given(key),
      ),
      sql`, `,
    )}
    from jsonb_to_recordset(${sql.placeholder('orders')}::jsonb) as given(${sql.raw(
      PLACED_COLUMNS.map((key) => `"${orderColumns[key].name}" ${orderColumns[key].getSQLType()}`).join(', '),
    )})
    ${options.when ? sql`where ${options.when}` : sql``}
    ${options.numberTaken === 'skip' ? sql`on conflict (${column('orderNumber')}) do nothing` : sql``}
    returning *`;
  const inserted = db.$with('inserted', orderColumns).as(insert);
  const itemsInserted = db.$with('items_inserted', {}).as(
    sql`insert into ${orderItems} (order_id, product_id, quantity, price, created_at)
        select inserted.id, item.product_id, item.quantity, item.price, ${sql.placeholder('createdAt')}::timestamptz
        from inserted
        join jsonb_to_recordset(${sql.placeholder('items')}::jsonb)
          as item(order_number text, product_id uuid, quantity int, price numeric)
          on item.order_number = inserted.order_number`,
  );
  const eventsInserted = db.$with('events_inserted', {}).as(
    sql`insert into ${orderStatusEvents} (order_id, from_status, to_status, actor_id, created_at)
        select inserted.id, null, 'pending', ${sql.placeholder('actorId')}::uuid, ${sql.placeholder('createdAt')}::timestamptz
        from inserted`,
  );
  // In the order given, each with the id of the order it announces; only orders inserted.
  const liveInserted = db.$with('live_inserted', {}).as(
    sql`insert into ${liveEvents} (type, audience, for_drivers, trailer_only, data)
        select e.type, e.audience, e.for_drivers, e.trailer_only,
          jsonb_set(e.data, '{orderId}', to_jsonb(inserted.id::text))
        from jsonb_to_recordset(${sql.placeholder('live')}::jsonb)
          as e(position int, order_number text, type text, audience uuid[], for_drivers boolean, trailer_only boolean, data jsonb)
        join inserted on inserted.order_number = e.order_number
        order by e.position
        returning id, audience, for_drivers, trailer_only, data`,
  );
  const liveNotified = db.$with('live_notified', { sent: sql<number>`sent` }).as(
    sql`select count(*)::int as sent from (
          select ${liveEventNotifySql('live_inserted')} from live_inserted order by live_inserted.id
        ) as notified`,
  );
  return { inserted, itemsInserted, eventsInserted, liveInserted, liveNotified };
}

/**
 * Built once: every paid checkout runs it. Whatever the number of orders and items, they come as
 * two JSON arrays, so the statement's text never changes.
 */
const ordersWithItemsInsert = builtOnce((db) => {
  const { inserted, itemsInserted, eventsInserted, liveInserted, liveNotified } = orderInsertCtes(db, {
    numberTaken: 'skip',
  });
  return db
    .with(inserted, itemsInserted, eventsInserted, liveInserted, liveNotified)
    .select({ order: inserted._.selectedFields, pickup: addresses })
    .from(inserted)
    .leftJoin(addresses, eq(addresses.id, inserted.pickupAddressId))
    .where(sql`(select sent from live_notified) >= 0`)
    .prepare('');
});

export async function insertStatusEvent(
  db: Db,
  values: typeof orderStatusEvents.$inferInsert,
): Promise<void> {
  await db.insert(orderStatusEvents).values(values);
}

/**
 * Every status change is conditional on the status it was decided on
 * (docs/rules/catalog-and-orders.md, Order lifecycle).
 */
export async function updateOrderStatus(
  db: Db,
  id: string,
  from: string,
  to: string,
  now: Date,
): Promise<OrderRow | undefined> {
  const rows = await db
    .update(orders)
    // The delivered time is recorded with the step (docs/rules/deliveries.md, Deliveries).
    .set({ status: to, updatedAt: now, ...(to === 'delivered' ? { deliveredAt: now } : {}) })
    .where(and(eq(orders.id, id), eq(orders.status, from)))
    .returning();
  return rows[0];
}

export async function listItemRowsOfOrder(db: Db, orderId: string): Promise<OrderItemRow[]> {
  return db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
}

/** One order's row, for the decisions of the driver's calls. */
export async function findOrderRow(db: Db, id: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id)).limit(1);
  return row;
}

/**
 * Accepting in one conditional statement (docs/rules/deliveries.md, Deliveries): the row changes only
 * while the order is still offered, so of any number of drivers accepting at once exactly one sees
 * it pending without a driver. Answers whether this driver got it.
 */
export async function assignDriverIfOffered(
  tx: Db,
  change: { orderId: string; driverId: string; hasTrailer: boolean; now: Date },
): Promise<boolean> {
  const rows = await tx
    .update(orders)
    .set({ status: 'assigned', driverId: change.driverId, updatedAt: change.now })
    .where(and(eq(orders.id, change.orderId), offeredSql(change.hasTrailer)))
    .returning({ id: orders.id });
  return rows.length > 0;
}

/** The assigned driver's own order while they still work on it. */
function activeDeliveryOf(orderId: string, driverId: string): SQL | undefined {
  return and(
    eq(orders.id, orderId),
    eq(orders.driverId, driverId),
    inArray(orders.status, [...ACTIVE_DELIVERY_STATUSES]),
  );
}

/** Conditional on the driver and the status: a change that lost a race changes nothing. */
export async function setEstimatedDeliveryTime(
  db: Db,
  change: { orderId: string; driverId: string; at: Date; now: Date },
): Promise<boolean> {
  const rows = await db
    .update(orders)
    .set({ estimatedDeliveryTime: change.at, updatedAt: change.now })
    .where(activeDeliveryOf(change.orderId, change.driverId))
    .returning({ id: orders.id });
  return rows.length === 1;
}

export async function setDeliveryPhotoUrl(
  tx: Db,
  change: { orderId: string; driverId: string; objectPath: string; now: Date },
): Promise<boolean> {
  const rows = await tx
    .update(orders)
    .set({ deliveryPhotoUrl: change.objectPath, updatedAt: change.now })
    .where(activeDeliveryOf(change.orderId, change.driverId))
    .returning({ id: orders.id });
  return rows.length === 1;
}

/**
 * The proof Mark Delivered was given (docs/rules/deliveries.md, Deliveries), in the transaction of the
 * step, on the assigned driver's own order only.
 */
export async function setDropOffProof(
  tx: Db,
  proof: {
    orderId: string;
    driverId: string;
    dropOffPhotoUrl: string | null;
    codeConfirmed: boolean;
    place: { latitude: number; longitude: number } | null;
  },
): Promise<boolean> {
  const rows = await tx
    .update(orders)
    .set({
      dropOffPhotoUrl: proof.dropOffPhotoUrl,
      deliveryCodeConfirmed: proof.codeConfirmed,
      dropOffLatitude: proof.place ? String(proof.place.latitude) : null,
      dropOffLongitude: proof.place ? String(proof.place.longitude) : null,
    })
    .where(and(eq(orders.id, proof.orderId), eq(orders.driverId, proof.driverId)))
    .returning({ id: orders.id });
  return rows.length === 1;
}

/**
 * Counts a wrong delivery code in one statement; the try that reaches `maxTries` locks the code
 * until `lockedUntil` and starts the count again. Answers whether the code is now locked.
 */
export async function countWrongDeliveryCode(
  db: Db,
  change: { orderId: string; maxTries: number; lockedUntil: Date },
): Promise<boolean> {
  const reached = sql`${orders.deliveryCodeWrongTries} + 1 >= ${change.maxTries}`;
  const rows = await db
    .update(orders)
    .set({
      deliveryCodeWrongTries: sql`case when ${reached} then 0 else ${orders.deliveryCodeWrongTries} + 1 end`,
      deliveryCodeLockedUntil: sql`case when ${reached} then ${change.lockedUntil}::timestamptz else ${orders.deliveryCodeLockedUntil} end`,
    })
    .where(eq(orders.id, change.orderId))
    .returning({ lockedUntil: orders.deliveryCodeLockedUntil });
  return rows[0]?.lockedUntil?.getTime() === change.lockedUntil.getTime();
}

/**
 * A hand back in one conditional statement (docs/rules/deliveries.md, Deliveries): only while the
 * order is still this driver's and assigned, it goes back to pending without a driver, an arrival
 * time or a delivery photo. Answers whether it changed; a Start Delivery at the same moment wins or
 * loses as a whole.
 */
export async function releaseAssignedOrder(
  tx: Db,
  change: { orderId: string; driverId: string; now: Date },
): Promise<boolean> {
  const rows = await tx
    .update(orders)
    .set({
      status: 'pending',
      driverId: null,
      estimatedDeliveryTime: null,
      deliveryPhotoUrl: null,
      updatedAt: change.now,
    })
    .where(
      and(eq(orders.id, change.orderId), eq(orders.driverId, change.driverId), eq(orders.status, 'assigned')),
    )
    .returning({ id: orders.id });
  return rows.length === 1;
}

/** The newest dispute of each payment. */
export async function listDisputesOfPayments(
  db: Db,
  paymentIds: readonly string[],
): Promise<Array<typeof disputes.$inferSelect>> {
  if (paymentIds.length === 0) return [];
  return db
    .select()
    .from(disputes)
    .where(inArray(disputes.paymentId, [...paymentIds]))
    .orderBy(asc(disputes.createdAt), asc(disputes.id));
}
