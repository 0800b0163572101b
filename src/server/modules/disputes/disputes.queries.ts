import { and, asc, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { disputes, orders, payments } from '../../db/schema';

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

/** A dispute's row by our id, locked for the caller's transaction. */
export async function lockDisputeById(db: Db, id: string): Promise<DisputeRow | undefined> {
  const [row] = await db.select().from(disputes).where(eq(disputes.id, id)).for('update');
  return row;
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
