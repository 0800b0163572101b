import { and, asc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { builtOnce } from '../../db/built-once';
import type { Db } from '../../db/client';
import type { PaymentStatus } from '../../../domain/checkout';
import type { RefundStatus } from '../../../domain/refunds';
import { disputeParts, orderItems, orders, payments, refunds } from '../../db/schema';

export type PaymentRow = typeof payments.$inferSelect;
export type RefundRow = typeof refunds.$inferSelect;

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
 * Built once: every checkout writes one (docs/decisions/0015-catalog-and-checkout-throughput.md).
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
 * The exactly-once claim, built once for each outcome (every paid checkout runs one): marks the
 * payment `status` and processed at `now` (its ISO form, as drizzle writes a date) if it is not yet
 * processed and charged or possibly charged, keeping the provider's charge once known (`chargeId`
 * null leaves it as it is; see setPaymentCharge).
 */
const claimAs = (status: 'succeeded' | 'refunded') =>
  builtOnce((db) =>
    db
      .update(payments)
      .set({
        status,
        processedAt: sql`${sql.placeholder('now')}`,
        updatedAt: sql`${sql.placeholder('now')}`,
        providerChargeId: sql`coalesce(${payments.providerChargeId}, ${sql.placeholder('chargeId')})`,
      })
      .where(
        and(
          eq(payments.id, sql.placeholder('id')),
          isNull(payments.processedAt),
          inArray(payments.status, ['requires_payment', 'succeeded']),
        ),
      )
      .returning()
      .prepare(''),
  );
const claimForOrders = claimAs('succeeded');
const claimForRefund = claimAs('refunded');

/**
 * The exactly-once gate (docs/product-rules.md, Payments): marks the payment succeeded and
 * processed in the caller's transaction, keeping the provider's charge when given, and answers the
 * row only to the one caller that flipped it. Concurrent callers wait on the row lock and then find
 * `processed_at` set.
 */
export async function claimPaymentForOrders(
  db: Db,
  id: string,
  now: Date,
  chargeId: string | null = null,
): Promise<PaymentRow | undefined> {
  const rows = await claimForOrders(db).execute({ id, now: now.toISOString(), chargeId });
  return rows[0];
}

/** The other way a payment is processed: an item sold out, so it is refunded in full and makes no orders. */
export async function claimPaymentForRefund(
  db: Db,
  id: string,
  now: Date,
  chargeId: string | null = null,
): Promise<PaymentRow | undefined> {
  const rows = await claimForRefund(db).execute({ id, now: now.toISOString(), chargeId });
  return rows[0];
}

export async function setPaymentStatus(db: Db, id: string, status: PaymentStatus, now: Date): Promise<void> {
  await db.update(payments).set({ status, updatedAt: now }).where(eq(payments.id, id));
}

/** Where a keyset page ends: the (created_at, id) of its last row. */
export interface PageCursor {
  createdAt: Date;
  id: string;
}

const after = (table: typeof payments | typeof refunds, cursor: PageCursor | undefined) =>
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

export async function insertRefund(db: Db, values: typeof refunds.$inferInsert): Promise<RefundRow> {
  const rows = await db.insert(refunds).values(values).returning();
  const row = rows[0];
  if (!row) throw new Error('refund insert returned no row');
  return row;
}

/** What has been refunded of a payment so far (undone refunds aside), in cents as numeric text. */
export async function sumRefundsOfPayment(db: Db, paymentId: string): Promise<string> {
  const rows = await db
    .select({ total: sql<string>`coalesce(sum(${refunds.amount}), 0)::text` })
    .from(refunds)
    .where(and(eq(refunds.paymentId, paymentId), isNull(refunds.undoneAt)));
  return rows[0]?.total ?? '0';
}

export async function listRefundsOfPayment(db: Db, paymentId: string): Promise<RefundRow[]> {
  return db.select().from(refunds).where(eq(refunds.paymentId, paymentId)).orderBy(asc(refunds.createdAt));
}

export async function findRefundById(db: Db, id: string): Promise<RefundRow | undefined> {
  const rows = await db.select().from(refunds).where(eq(refunds.id, id)).limit(1);
  return rows[0];
}

export async function findRefundByProviderId(
  db: Db,
  providerRefundId: string,
): Promise<RefundRow | undefined> {
  const rows = await db.select().from(refunds).where(eq(refunds.providerRefundId, providerRefundId)).limit(1);
  return rows[0];
}

/**
 * Refunds not finished: never made at the provider (the call failed or the process stopped), or
 * made and still pending or waiting for an action. One keyset page after `cursor`, oldest first.
 */
export async function listUnfinishedRefunds(
  db: Db,
  cursor: PageCursor | undefined,
  limit: number,
): Promise<RefundRow[]> {
  return db
    .select()
    .from(refunds)
    .where(and(inArray(refunds.status, ['pending', 'requires_action']), after(refunds, cursor)))
    .orderBy(asc(refunds.createdAt), asc(refunds.id))
    .limit(limit);
}

/**
 * A call to the provider for this refund starts: counted before it is made, so a call that reached
 * the provider before a crash is known to have been tried (the key-window check relies on it).
 */
export async function recordRefundAttempt(db: Db, id: string, now: Date): Promise<void> {
  await db
    .update(refunds)
    .set({ attempts: sql`${refunds.attempts} + 1`, lastAttemptAt: now, updatedAt: now })
    .where(eq(refunds.id, id));
}

/** How the last call for this refund ended: null when it completed. */
export async function setRefundLastError(db: Db, id: string, error: string | null, now: Date): Promise<void> {
  await db.update(refunds).set({ lastError: error, updatedAt: now }).where(eq(refunds.id, id));
}

/** What the provider says about the refund: its id there, its status and why it failed. */
export async function setRefundState(
  db: Db,
  id: string,
  state: { providerRefundId: string; status: RefundStatus; failureReason: string | null; now: Date },
): Promise<void> {
  await db
    .update(refunds)
    .set({
      providerRefundId: state.providerRefundId,
      status: state.status,
      failureReason: state.failureReason,
      updatedAt: state.now,
    })
    .where(
      and(
        eq(refunds.id, id),
        or(isNull(refunds.providerRefundId), eq(refunds.providerRefundId, state.providerRefundId)),
      ),
    );
}

/** Refunds that failed or still wait, oldest first, with the order they belong to (the admin's list). */
export async function listRefundsNeedingAttention(db: Db, limit: number) {
  return db
    .select({
      id: refunds.id,
      paymentId: refunds.paymentId,
      orderNumber: orders.orderNumber,
      amount: refunds.amount,
      reason: refunds.reason,
      status: refunds.status,
      failureReason: refunds.failureReason,
      lastError: refunds.lastError,
      attempts: refunds.attempts,
      lastAttemptAt: refunds.lastAttemptAt,
      providerRefundId: refunds.providerRefundId,
      createdAt: refunds.createdAt,
    })
    .from(refunds)
    .leftJoin(orders, eq(orders.id, refunds.orderId))
    .where(inArray(refunds.status, ['pending', 'requires_action', 'failed']))
    .orderBy(asc(refunds.createdAt), asc(refunds.id))
    .limit(limit);
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

/** The refund's row, locked while its state changes. */
export async function lockRefund(db: Db, id: string): Promise<RefundRow | undefined> {
  const [row] = await db.select().from(refunds).where(eq(refunds.id, id)).for('update');
  return row;
}

/** Marks a failed or refused refund undone, once: answers false when it already was. */
export async function markRefundUndone(db: Db, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(refunds)
    .set({ undoneAt: now, updatedAt: now })
    .where(and(eq(refunds.id, id), isNull(refunds.undoneAt)))
    .returning({ id: refunds.id });
  return rows.length > 0;
}

/** The refund ends without money moving: refused by the provider (`failed`) or not to be made (`canceled`); never sent again. */
export async function setRefundRefused(
  db: Db,
  id: string,
  state: { status: 'failed' | 'canceled'; failureReason: string; error: string; now: Date },
): Promise<void> {
  await db
    .update(refunds)
    .set({
      status: state.status,
      failureReason: state.failureReason,
      lastError: state.error,
      updatedAt: state.now,
    })
    .where(eq(refunds.id, id));
}

/** Items a refund by items gave back are refundable again (its refund failed). */
export async function giveBackRefundedItems(db: Db, orderItemId: string, quantity: number): Promise<void> {
  await db
    .update(orderItems)
    .set({ refundedQuantity: sql`greatest(${orderItems.refundedQuantity} - ${quantity}, 0)` })
    .where(eq(orderItems.id, orderItemId));
}

/**
 * Takes `quantity` more of an item of the order as refunded, if that many are left to refund of it
 * (docs/decisions/0022-money-in-combinations.md): answers the item as it stands after, or undefined
 * when fewer are left (nothing changed).
 */
export async function takeRefundedItems(db: Db, orderId: string, orderItemId: string, quantity: number) {
  const [row] = await db
    .update(orderItems)
    .set({ refundedQuantity: sql`${orderItems.refundedQuantity} + ${quantity}` })
    .where(
      and(
        eq(orderItems.id, orderItemId),
        eq(orderItems.orderId, orderId),
        sql`${orderItems.refundedQuantity} + ${quantity} <= ${orderItems.quantity}`,
      ),
    )
    .returning({ id: orderItems.id });
  return row;
}

/** How many of an item of the order are left to refund. */
export async function findRefundableQuantity(db: Db, orderId: string, orderItemId: string) {
  const [row] = await db
    .select({ left: sql<number>`(${orderItems.quantity} - ${orderItems.refundedQuantity})::int` })
    .from(orderItems)
    .where(and(eq(orderItems.id, orderItemId), eq(orderItems.orderId, orderId)));
  return row?.left;
}

/**
 * What has gone back to the buyer of the order so far, as numeric text: its refunds that were not
 * undone (a failed or cancelled refund is; docs/decisions/0022-money-in-combinations.md) and its
 * parts of lost disputes. What is left of the order is its total less this.
 */
export async function sumTakenFromOrder(db: Db, orderId: string): Promise<string> {
  const [row] = await db
    .select({
      total: sql<string>`(
        coalesce((select sum(${refunds.amount}) from ${refunds} where ${refunds.orderId} = ${orderId} and ${refunds.undoneAt} is null), 0)
        + coalesce((select sum(${disputeParts.amount}) from ${disputeParts} where ${disputeParts.orderId} = ${orderId}), 0)
      )::text`,
    })
    .from(sql`(select 1) as one`);
  return row?.total ?? '0';
}

/** Refunds of the payment not made at the provider (no provider id; one tried was looked for first), locked. */
export async function lockUnsentRefundsOfPayment(db: Db, paymentId: string): Promise<RefundRow[]> {
  return db
    .select()
    .from(refunds)
    .where(
      and(
        eq(refunds.paymentId, paymentId),
        eq(refunds.status, 'pending'),
        isNull(refunds.providerRefundId),
        isNull(refunds.undoneAt),
      ),
    )
    .orderBy(asc(refunds.createdAt), asc(refunds.id))
    .for('update');
}

/** Refunds of the payment not made at the provider yet (pending, no provider id), oldest first. */
export async function listUnsentRefundsOfPayment(db: Db, paymentId: string): Promise<RefundRow[]> {
  return db
    .select()
    .from(refunds)
    .where(
      and(
        eq(refunds.paymentId, paymentId),
        eq(refunds.status, 'pending'),
        isNull(refunds.providerRefundId),
        isNull(refunds.undoneAt),
      ),
    )
    .orderBy(asc(refunds.createdAt), asc(refunds.id));
}
