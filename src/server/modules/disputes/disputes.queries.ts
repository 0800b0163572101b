import { and, asc, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { disputeParts, disputes, ledgerEntries, orders, payments, users } from '../../db/schema';

export type DisputeRow = typeof disputes.$inferSelect;
export type NewDisputeRow = typeof disputes.$inferInsert;

/**
 * The payment a dispute is on: by the disputed charge, or by its PaymentIntent when the charge was
 * not stored yet (docs/decisions/0013-money-movement.md, Payments and refunds: the charge is learnt
 * when the success is processed).
 */
export async function findPaymentOfDispute(
  db: Db,
  provider: string,
  chargeId: string | null,
  providerPaymentId: string | null,
): Promise<
  { id: string; buyerId: string; currency: string; providerPaymentId: string; amount: string } | undefined
> {
  const matches = [
    chargeId ? eq(payments.providerChargeId, chargeId) : undefined,
    providerPaymentId ? eq(payments.providerPaymentId, providerPaymentId) : undefined,
  ].filter((m) => m !== undefined);
  if (matches.length === 0) return undefined;
  const [row] = await db
    .select({
      id: payments.id,
      buyerId: payments.buyerId,
      currency: payments.currency,
      providerPaymentId: payments.providerPaymentId,
      amount: payments.amount,
    })
    .from(payments)
    .where(and(eq(payments.provider, provider), or(...matches)))
    .limit(1);
  return row;
}

/** The first event of a dispute makes its row; a later or concurrent one finds it there. */
export async function insertDisputeIfNew(db: Db, row: NewDisputeRow): Promise<void> {
  await db
    .insert(disputes)
    .values(row)
    .onConflictDoNothing({ target: [disputes.provider, disputes.providerDisputeId] });
}

/** The dispute's row, locked for the rest of the transaction: its events are applied one at a time. */
export async function lockDispute(
  db: Db,
  provider: string,
  providerDisputeId: string,
): Promise<DisputeRow | undefined> {
  const [row] = await db
    .select()
    .from(disputes)
    .where(and(eq(disputes.provider, provider), eq(disputes.providerDisputeId, providerDisputeId)))
    .for('update');
  return row;
}

export async function updateDispute(
  db: Db,
  id: string,
  patch: Partial<Omit<NewDisputeRow, 'id' | 'paymentId' | 'provider' | 'providerDisputeId'>>,
): Promise<void> {
  await db.update(disputes).set(patch).where(eq(disputes.id, id));
}

/** Marks a lost dispute's outcome handled, once: answers false when it already was. */
export async function claimDisputeOutcome(db: Db, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(disputes)
    .set({ outcomeHandledAt: now, updatedAt: now })
    .where(and(eq(disputes.id, id), isNull(disputes.outcomeHandledAt)))
    .returning({ id: disputes.id });
  return rows.length > 0;
}

/** The orders a payment paid for, in a fixed order, with what each cost the buyer. */
export async function listOrdersOfDisputedPayment(db: Db, paymentId: string) {
  return db
    .select({ id: orders.id, orderNumber: orders.orderNumber, total: orders.total, status: orders.status })
    .from(orders)
    .where(eq(orders.paymentId, paymentId))
    .orderBy(asc(orders.createdAt), asc(orders.orderNumber));
}

/**
 * Does a dispute on the order's payment hold its payouts: one not closed yet, or one lost (or
 * prevented, `isDisputeLost`) whose share has not been taken back from the sellers and drivers yet.
 */
export async function findHoldingDispute(db: Db, orderId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: disputes.id })
    .from(disputes)
    .innerJoin(orders, eq(orders.paymentId, disputes.paymentId))
    .where(
      and(
        eq(orders.id, orderId),
        or(
          sql`${disputes.status} not in ('won','lost','warning_closed','prevented')`,
          and(inArray(disputes.status, ['lost', 'prevented']), isNull(disputes.outcomeHandledAt)),
        ),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The newest dispute of each payment. */
export async function listDisputesOfPayments(db: Db, paymentIds: readonly string[]): Promise<DisputeRow[]> {
  if (paymentIds.length === 0) return [];
  return db
    .select()
    .from(disputes)
    .where(inArray(disputes.paymentId, [...paymentIds]))
    .orderBy(asc(disputes.createdAt), asc(disputes.id));
}

/**
 * The admin's list: open disputes first, the soonest evidence deadline first; then the closed ones,
 * the latest first. Each with the numbers of the orders its payment paid for.
 */
export async function listDisputesWithOrders(db: Db, limit: number) {
  const open = sql`${disputes.closedAt} is null`;
  return db
    .select({
      dispute: disputes,
      orderIds: sql<
        string[]
      >`coalesce((select array_agg(${orders.id}::text order by ${orders.orderNumber}) from ${orders} where ${orders.paymentId} = ${disputes.paymentId}), '{}')`,
      orderNumbers: sql<
        string[]
      >`coalesce((select array_agg(${orders.orderNumber} order by ${orders.orderNumber}) from ${orders} where ${orders.paymentId} = ${disputes.paymentId}), '{}')`,
    })
    .from(disputes)
    .orderBy(
      desc(open),
      sql`case when ${open} then ${disputes.evidenceDueBy} end asc nulls last`,
      desc(disputes.closedAt),
      desc(disputes.createdAt),
      asc(disputes.id),
    )
    .limit(limit);
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
    .where(and(eq(disputeParts.orderId, orderId), isNull(disputeParts.takenBackAt)))
    .returning();
}

/** Money already refunded that lost disputes took again (`dispute_loss`), newest first, with the buyer and the orders. */
export async function listDisputeLosses(db: Db, limit: number) {
  return db
    .select({
      id: ledgerEntries.id,
      amount: ledgerEntries.amount,
      at: ledgerEntries.createdAt,
      disputeAmount: disputes.amount,
      reason: disputes.reason,
      firstName: users.firstName,
      lastName: users.lastName,
      orderId: sql<string>`(select o.id::text from orders o where o.payment_id = ${disputes.paymentId} order by o.created_at, o.order_number limit 1)`,
      orderNumbers: sql<string>`(select string_agg(o.order_number, ', ' order by o.created_at, o.order_number) from orders o where o.payment_id = ${disputes.paymentId})`,
    })
    .from(ledgerEntries)
    .innerJoin(disputes, eq(disputes.id, ledgerEntries.disputeId))
    .innerJoin(payments, eq(payments.id, disputes.paymentId))
    .innerJoin(users, eq(users.id, payments.buyerId))
    .where(eq(ledgerEntries.kind, 'dispute_loss'))
    .orderBy(desc(ledgerEntries.createdAt), desc(ledgerEntries.id))
    .limit(limit);
}
