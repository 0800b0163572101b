import { and, asc, eq, getTableColumns, gt, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { builtOnce } from '../../db/built-once';
import type { Db } from '../../db/client';
import type { PaymentStatus } from '../../../domain/checkout';
import { addresses, commissionSettings, ledgerEntries, payments, products } from '../../db/schema';
import { salesOfSellersJson } from '../../db/sql-sales';
import {
  orderInsertCtes,
  orderInsertParams,
  placedDetails,
  type NewOrder,
  type PlacedOrder,
} from '../orders/place-orders';

export type PaymentRow = typeof payments.$inferSelect;

/**
 * A new payment, as the checkout writes it: every column the insert names, its id made by the
 * caller. Taken from the schema, so a column's type changes here with it; the status is one the
 * domain knows (the column is text).
 */
export type NewPayment = { status: PaymentStatus } & Required<
  Pick<
    typeof payments.$inferInsert,
    | 'id'
    | 'buyerId'
    | 'provider'
    | 'providerPaymentId'
    | 'amount'
    | 'currency'
    | 'checkout'
    | 'checkoutKey'
    | 'transferGroup'
    | 'createdAt'
    | 'updatedAt'
  >
>;

export async function insertPayment(db: Db, values: NewPayment): Promise<void> {
  await paymentInsert(db).execute({ ...values });
}

/**
 * Built once: every checkout writes one (docs/decisions/0028-checkout-throughput.md, Statements built once).
 * The charge, the provider's fee and the time it was processed start empty.
 */
const paymentInsert = builtOnce((db) =>
  db
    .insert(payments)
    .values({
      id: sql.placeholder('id'),
      buyerId: sql.placeholder('buyerId'),
      provider: sql.placeholder('provider'),
      providerPaymentId: sql.placeholder('providerPaymentId'),
      amount: sql.placeholder('amount'),
      currency: sql.placeholder('currency'),
      status: sql.placeholder('status'),
      checkout: sql.placeholder('checkout'),
      checkoutKey: sql.placeholder('checkoutKey'),
      transferGroup: sql.placeholder('transferGroup'),
      createdAt: sql.placeholder('createdAt'),
      updatedAt: sql.placeholder('updatedAt'),
    })
    .prepare(''),
);

/** Built once: every confirmation and every look at a payment reads it. */
const paymentById = builtOnce((db) =>
  db
    .select()
    .from(payments)
    .where(eq(payments.id, sql.placeholder('id')))
    .limit(1)
    .prepare(''),
);

export async function findPaymentById(db: Db, id: string): Promise<PaymentRow | undefined> {
  const rows = await paymentById(db).execute({ id });
  return rows[0];
}

/** Built once: every confirmation and webhook finds its payment by the provider's id. */
const paymentByProviderId = builtOnce((db) =>
  db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.provider, sql.placeholder('provider')),
        eq(payments.providerPaymentId, sql.placeholder('providerPaymentId')),
      ),
    )
    .limit(1)
    .prepare(''),
);

export async function findPaymentByProviderId(
  db: Db,
  provider: string,
  providerPaymentId: string,
): Promise<PaymentRow | undefined> {
  const rows = await paymentByProviderId(db).execute({ provider, providerPaymentId });
  return rows[0];
}

/**
 * The exactly-once claim (every paid checkout runs one), as two CTEs: `claimed` marks the payment
 * `status` and processed at `now` (its ISO form, as drizzle writes a date) if it is not yet
 * processed and charged or possibly charged, keeping the provider's charge once known (`chargeId`
 * null leaves it as it is; see setPaymentCharge) and the provider's fee when it keeps none (`fee`
 * null leaves it to learnProviderFee); `charged` appends the buyer's charge to the ledger for the
 * payment it claimed, as recordCharge in the ledger module writes it: `charge:<paymentId>`, once,
 * naming the provider's charge when known, else the payment intent
 * (docs/decisions/0025-checkout-statements.md).
 */
function claimCtes(db: Db, status: 'succeeded' | 'refunded', when?: SQL) {
  const claimed = db.$with('claimed').as(
    db
      .update(payments)
      .set({
        status,
        processedAt: sql`${sql.placeholder('now')}`,
        updatedAt: sql`${sql.placeholder('now')}`,
        providerChargeId: sql`coalesce(${payments.providerChargeId}, ${sql.placeholder('chargeId')})`,
        providerFee: sql`coalesce(${payments.providerFee}, ${sql.placeholder('fee')}::numeric)`,
      })
      .where(
        and(
          eq(payments.id, sql.placeholder('id')),
          isNull(payments.processedAt),
          inArray(payments.status, ['requires_payment', 'succeeded']),
          when,
        ),
      )
      .returning(),
  );
  const charged = db.$with('charged', {}).as(
    sql`insert into ${ledgerEntries} (entry_key, kind, amount, currency, payment_id, user_id, provider_reference, created_at)
        select 'charge:' || claimed.id, 'charge', claimed.amount, claimed.currency, claimed.id, claimed.buyer_id,
               coalesce(claimed.provider_charge_id, claimed.provider_payment_id), ${sql.placeholder('now')}::timestamptz
        from claimed
        where claimed.amount > 0
        on conflict (entry_key) do nothing`,
  );
  return { claimed, charged };
}

/** Built once: the claim of a payment to be refunded in full (a line sold out, a late payment repriced). */
const claimForRefund = builtOnce((db) => {
  const { claimed, charged } = claimCtes(db, 'refunded');
  return db.with(claimed, charged).select().from(claimed).prepare('');
});

/** A late payment claimed for its orders by claimLatePaymentForOrders. */
export interface ClaimedLatePayment {
  payment: PaymentRow;
  /** The commission settings (null when their row is missing) and the checkout's sellers' sales. */
  settings: typeof commissionSettings.$inferSelect | null;
  sales: Map<string, string>;
}

/**
 * The exactly-once gate of a payment that arrived after its quote expired (docs/rules/money.md,
 * Payments; a fresh one is placed by placeFreshCheckout): claims the payment succeeded and
 * processed in the caller's transaction (claimCtes), answering it only to the one caller that
 * flipped it (concurrent callers wait on the row lock and then find `processed_at` set), with the
 * commission settings and the checkout's sellers' sales in [salesFrom, now) read in the same
 * statement. The caller prices it again and takes its stock after. Undefined when another caller
 * processed the payment.
 */
export async function claimLatePaymentForOrders(
  db: Db,
  input: { id: string; now: Date; chargeId: string | null; fee: string | null; salesFrom: Date },
): Promise<ClaimedLatePayment | undefined> {
  const rows = await claimWithCommission(db).execute({
    id: input.id,
    now: input.now.toISOString(),
    chargeId: input.chargeId,
    fee: input.fee,
    salesFrom: input.salesFrom.toISOString(),
  });
  const row = rows[0];
  if (!row) return undefined;
  return {
    payment: row.payment as PaymentRow,
    settings: row.settings,
    sales: new Map(Object.entries(row.sales ?? {})),
  };
}

/** The claimed row's columns, as a payment row (the CTE's fields keyed as the table's). */
function claimedPayment(claimed: object): Record<keyof PaymentRow, ReturnType<typeof sql>> {
  const columns = claimed as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(getTableColumns(payments)).map((key) => [key, columns[key]]),
  ) as Record<keyof PaymentRow, ReturnType<typeof sql>>;
}

/** Built once: the claim of a late payment, with the commission's inputs of its checkout. */
const claimWithCommission = builtOnce((db) => {
  const { claimed, charged } = claimCtes(db, 'succeeded');
  return db
    .with(claimed, charged)
    .select({
      payment: claimedPayment(claimed),
      settings: commissionSettings,
      sales: salesOfSellersJson(
        sql`select (placed.seller_order ->> 'sellerId')::uuid
            from jsonb_array_elements(${sql.raw('claimed.checkout')} -> 'orders') as placed(seller_order)`,
        sql`${sql.placeholder('salesFrom')}::timestamptz`,
        sql`${sql.placeholder('now')}::timestamptz`,
      ),
    })
    .from(claimed)
    .leftJoin(commissionSettings, eq(commissionSettings.id, 1))
    .prepare('');
});

/** A payment with what its orders' commission needs: the settings (null when their row is missing) and its sellers' sales. */
export interface PaymentForOrders {
  payment: PaymentRow;
  settings: typeof commissionSettings.$inferSelect | null;
  sales: Map<string, string>;
}

/**
 * The payment `id` with the commission's inputs of its checkout: the settings row and the sales of
 * the checkout's sellers in [salesFrom, now), read in the statement that reads the payment
 * (docs/decisions/0025-checkout-statements.md, One statement places a fresh checkout).
 */
export async function findPaymentForOrders(
  db: Db,
  input: { id: string; now: Date; salesFrom: Date },
): Promise<PaymentForOrders | undefined> {
  const rows = await paymentForOrders(db).execute({
    id: input.id,
    now: input.now.toISOString(),
    salesFrom: input.salesFrom.toISOString(),
  });
  const row = rows[0];
  if (!row) return undefined;
  return { payment: row.payment, settings: row.settings, sales: new Map(Object.entries(row.sales ?? {})) };
}

/** Built once: every confirmation reads it. */
const paymentForOrders = builtOnce((db) =>
  db
    .select({
      payment: payments,
      settings: commissionSettings,
      sales: salesOfSellersJson(
        sql`select (placed.seller_order ->> 'sellerId')::uuid
            from jsonb_array_elements(${payments.checkout} -> 'orders') as placed(seller_order)`,
        sql`${sql.placeholder('salesFrom')}::timestamptz`,
        sql`${sql.placeholder('now')}::timestamptz`,
      ),
    })
    .from(payments)
    .leftJoin(commissionSettings, eq(commissionSettings.id, 1))
    .where(eq(payments.id, sql.placeholder('id')))
    .limit(1)
    .prepare(''),
);

/** What placeFreshCheckout did. */
export type FreshPlacing =
  | { kind: 'placed'; payment: PaymentRow; orders: PlacedOrder[] }
  /** Nothing was written: these products (ids) are gone, short or off sale. */
  | { kind: 'short'; productIds: string[] }
  /** Nothing was written: the payment was processed by another caller (or is not charged). */
  | { kind: 'already' };

/**
 * A paid checkout whose quote still holds, made into its orders by one statement, so without a
 * transaction of its own (docs/decisions/0025-checkout-statements.md, One statement places a fresh
 * checkout): the products of `lines` (summed by product) are locked in the order of their ids
 * first; only if every one is there, on sale and has enough left (judged on the rows as locked)
 * is the payment claimed (claimCtes, the charge written to the ledger), the stock taken and the
 * orders inserted (orderInsertCtes, their live events sent at its commit). An order number already
 * taken fails the whole statement (a unique violation of orders_number_unique): nothing is written
 * and the caller draws again.
 */
export async function placeFreshCheckout(
  db: Db,
  input: {
    id: string;
    now: Date;
    chargeId: string | null;
    fee: string | null;
    lines: readonly { productId: string; quantity: number }[];
    placing: readonly NewOrder[];
    actorId: string;
  },
): Promise<FreshPlacing> {
  const rows = await freshCheckoutPlacing(db).execute({
    id: input.id,
    now: input.now.toISOString(),
    chargeId: input.chargeId,
    fee: input.fee,
    lines: JSON.stringify(
      input.lines.map((line) => ({ product_id: line.productId, quantity: line.quantity })),
    ),
    ...orderInsertParams(input.placing, { actorId: input.actorId, createdAt: input.now }),
  });
  const first = rows[0];
  if (first?.shortIds) return { kind: 'short', productIds: first.shortIds };
  // A left join of no row answers null, or an object of nulls.
  const payment = first?.payment as PaymentRow | null | undefined;
  if (!payment?.id) return { kind: 'already' };
  return { kind: 'placed', payment, orders: placedDetails(input.placing, rows) };
}

/**
 * Built once: every paid checkout whose quote holds runs it. `short` is named by the claim's
 * condition, which names no row of the payments: PostgreSQL checks it once, before the update
 * reads the payment (the plan's "One-Time Filter"), so the products are locked before the payment,
 * in the order of their ids. The stock's update and the orders' insert are conditions on `claimed`
 * the same way. One row at least (`state`), with the claimed payment and each order inserted.
 */
const freshCheckoutPlacing = builtOnce((db) => {
  const wanted = db.$with('wanted', {}).as(
    sql`select line.product_id, line.quantity
        from jsonb_to_recordset(${sql.placeholder('lines')}::jsonb) as line(product_id uuid, quantity int)`,
  );
  // The rows as locked, their newest versions: a restock committed while the lock waited is sold.
  const locked = db.$with('locked', {}).as(
    sql`select ${products.id}, ${products.stock}, ${products.onSale} from ${products}
        where ${products.id} in (select product_id from wanted)
        order by ${products.id}
        for update`,
  );
  const short = db.$with('short', {}).as(
    sql`select wanted.product_id from wanted left join locked on locked.id = wanted.product_id
        where locked.id is null or locked.stock < wanted.quantity or locked.on_sale is not true`,
  );
  const { claimed, charged } = claimCtes(db, 'succeeded', sql`not exists (select 1 from short)`);
  const taken = db.$with('taken', {}).as(
    sql`update ${products}
        set stock = locked.stock - wanted.quantity, updated_at = ${sql.placeholder('now')}::timestamptz
        from wanted join locked on locked.id = wanted.product_id
        where ${products.id} = locked.id and exists (select 1 from claimed)`,
  );
  const { inserted, itemsInserted, eventsInserted, liveInserted, liveNotified } = orderInsertCtes(db, {
    when: sql`exists (select 1 from claimed)`,
    numberTaken: 'fail',
  });
  const state = db
    .$with('state', { shortIds: sql<string[] | null>`short_ids`.as('short_ids') })
    .as(sql`select (select json_agg(product_id order by product_id) from short) as short_ids`);
  const paymentColumns = claimed as unknown as Record<string, unknown>;
  const payment = Object.fromEntries(
    Object.keys(getTableColumns(payments)).map((key) => [key, paymentColumns[key]]),
  ) as Record<keyof PaymentRow, ReturnType<typeof sql>>;
  return db
    .with(
      wanted,
      locked,
      short,
      claimed,
      charged,
      taken,
      inserted,
      itemsInserted,
      eventsInserted,
      liveInserted,
      liveNotified,
      state,
    )
    .select({ shortIds: state.shortIds, payment, order: inserted._.selectedFields, pickup: addresses })
    .from(state)
    .leftJoin(claimed, sql`true`)
    .leftJoin(inserted, sql`true`)
    .leftJoin(addresses, eq(addresses.id, inserted.pickupAddressId))
    .where(sql`(select sent from live_notified) >= 0`)
    .prepare('');
});

/** The other way a payment is processed: an item sold out, so it is refunded in full and makes no orders. */
export async function claimPaymentForRefund(
  db: Db,
  id: string,
  now: Date,
  chargeId: string | null = null,
  fee: string | null = null,
): Promise<PaymentRow | undefined> {
  const rows = await claimForRefund(db).execute({ id, now: now.toISOString(), chargeId, fee });
  return rows[0];
}

/** Where a keyset page ends: the (created_at, id) of its last row. */
export interface PageCursor {
  createdAt: Date;
  id: string;
}

const after = (table: typeof payments, cursor: PageCursor | undefined) =>
  cursor
    ? or(
        gt(table.createdAt, cursor.createdAt),
        and(eq(table.createdAt, cursor.createdAt), gt(table.id, cursor.id)),
      )
    : undefined;

/**
 * Payments not yet processed that may still be charged or must be stopped: charged ones, and open
 * ones (the provider is asked, or they are cancelled once abandoned). One keyset page after
 * `cursor`, oldest first, so recovery reaches every one of them however many there are.
 */
export async function listUnprocessedPayments(
  db: Db,
  cursor: PageCursor | undefined,
  limit: number,
): Promise<PaymentRow[]> {
  return db
    .select()
    .from(payments)
    .where(
      and(
        isNull(payments.processedAt),
        inArray(payments.status, ['requires_payment', 'succeeded']),
        after(payments, cursor),
      ),
    )
    .orderBy(asc(payments.createdAt), asc(payments.id))
    .limit(limit);
}

/** The charge is learnt when the success is processed (Stripe: latest_charge); it never changes after. */
export async function setPaymentCharge(db: Db, id: string, chargeId: string, now: Date): Promise<void> {
  await db
    .update(payments)
    .set({ providerChargeId: chargeId, updatedAt: now })
    .where(and(eq(payments.id, id), isNull(payments.providerChargeId)));
}

/** The open payment of the same checkout of this buyer, if any (a reload of the payment screen). */
export async function findOpenPaymentOfCheckout(
  db: Db,
  buyerId: string,
  checkoutKey: string,
): Promise<PaymentRow | undefined> {
  const rows = await openPaymentOfCheckout(db).execute({ buyerId, checkoutKey });
  return rows[0];
}

/** Built once: every payment started asks it. */
const openPaymentOfCheckout = builtOnce((db) =>
  db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.buyerId, sql.placeholder('buyerId')),
        eq(payments.checkoutKey, sql.placeholder('checkoutKey')),
        isNull(payments.processedAt),
        inArray(payments.status, ['requires_payment', 'succeeded']),
      ),
    )
    .limit(1)
    .prepare(''),
);

/** An open payment that was stopped (abandoned, or replaced by a new one); a charged one is never touched. */
export async function markPaymentCancelled(db: Db, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(payments)
    .set({ status: 'cancelled', updatedAt: now })
    .where(
      and(
        eq(payments.id, id),
        isNull(payments.processedAt),
        inArray(payments.status, ['requires_payment', 'cancelled']),
      ),
    )
    .returning({ id: payments.id });
  return rows.length > 0;
}

/**
 * Processed payments of a provider whose charge's fee is not known yet (docs/decisions/
 * 0018-money-against-stripe.md, Provider fees): one keyset page on (processed_at, id) after `cursor`.
 */
export async function listPaymentsWithoutFee(
  db: Db,
  provider: string,
  cursor: { processedAt: Date; id: string } | undefined,
  limit: number,
): Promise<PaymentRow[]> {
  return db
    .select()
    .from(payments)
    .where(
      and(
        sql`${payments.processedAt} IS NOT NULL`,
        isNull(payments.providerFee),
        sql`${payments.providerChargeId} IS NOT NULL`,
        eq(payments.provider, provider),
        cursor
          ? or(
              gt(payments.processedAt, cursor.processedAt),
              and(eq(payments.processedAt, cursor.processedAt), gt(payments.id, cursor.id)),
            )
          : undefined,
      ),
    )
    .orderBy(asc(payments.processedAt), asc(payments.id))
    .limit(limit);
}

/** Built once: every paid checkout keeps its charge's fee. */
const providerFeeOnce = builtOnce((db) =>
  db
    .update(payments)
    .set({ providerFee: sql`${sql.placeholder('fee')}`, updatedAt: sql`${sql.placeholder('now')}` })
    .where(and(eq(payments.id, sql.placeholder('id')), isNull(payments.providerFee)))
    .returning()
    .prepare(''),
);

/** Keeps the charge's fee, once: answers the row only to the caller that set it. */
export async function setPaymentProviderFee(
  db: Db,
  id: string,
  fee: string,
  now: Date,
): Promise<PaymentRow | undefined> {
  const rows = await providerFeeOnce(db).execute({ id, fee, now: now.toISOString() });
  return rows[0];
}
