import { and, asc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { PaymentStatus } from '../../../domain/checkout';
import type { RefundStatus } from '../../../domain/refunds';
import { disputeParts, disputes, orderItems, orders, payments, refunds } from '../../db/schema';

export type RefundRow = typeof refunds.$inferSelect;

/** Where a keyset page of refunds ends: the (created_at, id) of its last row. */
export interface PageCursor {
  createdAt: Date;
  id: string;
}

const after = (cursor: PageCursor | undefined) =>
  cursor
    ? or(
        gt(refunds.createdAt, cursor.createdAt),
        and(eq(refunds.createdAt, cursor.createdAt), gt(refunds.id, cursor.id)),
      )
    : undefined;

/** What a refund needs of its payment: the provider's id to refund, the amount, the buyer and the currency. */
export async function findPaymentOfRefund(db: Db, paymentId: string) {
  const [row] = await db
    .select({
      id: payments.id,
      provider: payments.provider,
      providerPaymentId: payments.providerPaymentId,
      amount: payments.amount,
      currency: payments.currency,
      buyerId: payments.buyerId,
    })
    .from(payments)
    .where(eq(payments.id, paymentId))
    .limit(1);
  return row;
}

/** The payment's status after its refunds changed (refunded, partially refunded or succeeded again). */
export async function setPaymentRefundStatus(
  db: Db,
  id: string,
  status: Extract<PaymentStatus, 'refunded' | 'partially_refunded' | 'succeeded'>,
  now: Date,
): Promise<void> {
  await db.update(payments).set({ status, updatedAt: now }).where(eq(payments.id, id));
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
    .where(and(inArray(refunds.status, ['pending', 'requires_action']), after(cursor)))
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
 * What has gone back to the buyer of the order so far, as numeric text: its refunds that were not undone (a
 * failed or cancelled refund is; docs/decisions/0022-money-in-combinations.md) and its parts of lost disputes
 * not undone (a prevented dispute's refund that failed). What is left of the order is its total less this.
 */
export async function sumTakenFromOrder(db: Db, orderId: string): Promise<string> {
  const [row] = await db
    .select({
      total: sql<string>`(
        coalesce((select sum(${refunds.amount}) from ${refunds} where ${refunds.orderId} = ${orderId} and ${refunds.undoneAt} is null), 0)
        + coalesce((select sum(${disputeParts.amount}) from ${disputeParts} where ${disputeParts.orderId} = ${orderId} and ${disputeParts.undoneAt} is null), 0)
      )::text`,
    })
    .from(sql`(select 1) as one`);
  return row?.total ?? '0';
}

/**
 * Refunds of the payment not made at the provider yet (pending, no provider id), oldest first;
 * locked for the caller's transaction when `lock` is set (a lost dispute cancels them).
 */
export async function listUnsentRefundsOfPayment(
  db: Db,
  paymentId: string,
  options: { lock?: boolean } = {},
): Promise<RefundRow[]> {
  const query = db
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
  return options.lock ? query.for('update') : query;
}

/**
 * Is the payment's charge disputed with its funds withdrawn and undecided (`needs_response`,
 * `under_review`): Stripe refuses to refund it then (`charge_disputed`); an inquiry does not
 * (docs/decisions/0022-money-in-combinations.md, A refund while the payment is disputed).
 */
export async function findRefundBlockingDispute(db: Db, paymentId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: disputes.id })
    .from(disputes)
    .where(
      and(
        eq(disputes.paymentId, paymentId),
        inArray(disputes.status, ['needs_response', 'under_review']),
        isNull(disputes.closedAt),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The orders of a payment, their rows locked, in a fixed order (a lost dispute splits over them). */
export async function lockOrdersOfPayment(db: Db, paymentId: string) {
  return db
    .select({ id: orders.id, orderNumber: orders.orderNumber, total: orders.total, status: orders.status })
    .from(orders)
    .where(eq(orders.paymentId, paymentId))
    .orderBy(asc(orders.createdAt), asc(orders.orderNumber))
    .for('update');
}

/** Records one order's part of a lost dispute; taken back now (a finished order) or when it finishes. */
export async function insertDisputePart(
  db: Db,
  part: { disputeId: string; orderId: string; amount: string; takenBackAt: Date | null; now: Date },
): Promise<void> {
  await db
    .insert(disputeParts)
    .values({
      disputeId: part.disputeId,
      orderId: part.orderId,
      amount: part.amount,
      takenBackAt: part.takenBackAt,
      createdAt: part.now,
    })
    .onConflictDoNothing();
}

/** The parts of lost disputes an order has not given back yet, claimed (taken back) in the caller's transaction. */
export async function claimUntakenDisputeParts(db: Db, orderId: string, now: Date) {
  return db
    .update(disputeParts)
    .set({ takenBackAt: now })
    .where(
      and(eq(disputeParts.orderId, orderId), isNull(disputeParts.takenBackAt), isNull(disputeParts.undoneAt)),
    )
    .returning();
}

/**
 * Marks the dispute's parts undone, once (docs/decisions/0022-money-in-combinations.md, A prevented
 * dispute whose refund fails): answers the parts it marked, none when they were undone already.
 */
export async function markDisputePartsUndone(db: Db, disputeId: string, now: Date) {
  return db
    .update(disputeParts)
    .set({ undoneAt: now })
    .where(and(eq(disputeParts.disputeId, disputeId), isNull(disputeParts.undoneAt)))
    .returning();
}

/** The order's total, its row locked so two refunds cannot both take what is left of it. */
export async function lockOrderForRefund(db: Db, orderId: string) {
  const [row] = await db
    .select({ id: orders.id, total: orders.total })
    .from(orders)
    .where(eq(orders.id, orderId))
    .for('update');
  return row;
}
