import { and, asc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { PaymentStatus } from '../../../domain/checkout';
import { payments, refunds } from '../../db/schema';

export type PaymentRow = typeof payments.$inferSelect;
export type RefundRow = typeof refunds.$inferSelect;

export async function insertPayment(db: Db, values: typeof payments.$inferInsert): Promise<PaymentRow> {
  const rows = await db.insert(payments).values(values).returning();
  const row = rows[0];
  if (!row) throw new Error('payment insert returned no row');
  return row;
}

export async function findPaymentById(db: Db, id: string): Promise<PaymentRow | undefined> {
  const rows = await db.select().from(payments).where(eq(payments.id, id)).limit(1);
  return rows[0];
}

export async function findPaymentByProviderId(
  db: Db,
  provider: string,
  providerPaymentId: string,
): Promise<PaymentRow | undefined> {
  const rows = await db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, provider), eq(payments.providerPaymentId, providerPaymentId)))
    .limit(1);
  return rows[0];
}

/** Not yet processed, and charged or possibly charged: the exactly-once claim below may take it. */
const claimable = (id: string) =>
  and(
    eq(payments.id, id),
    isNull(payments.processedAt),
    inArray(payments.status, ['requires_payment', 'succeeded']),
  );

/**
 * The exactly-once gate (docs/product-rules.md, Payments): marks the payment succeeded and
 * processed in the caller's transaction, and answers the row only to the one caller that flipped
 * it. Concurrent callers wait on the row lock and then find `processed_at` set.
 */
export async function claimPaymentForOrders(db: Db, id: string, now: Date): Promise<PaymentRow | undefined> {
  const rows = await db
    .update(payments)
    .set({ status: 'succeeded', processedAt: now, updatedAt: now })
    .where(claimable(id))
    .returning();
  return rows[0];
}

/** The other way a payment is processed: an item sold out, so it is refunded in full and makes no orders. */
export async function claimPaymentForRefund(db: Db, id: string, now: Date): Promise<PaymentRow | undefined> {
  const rows = await db
    .update(payments)
    .set({ status: 'refunded', processedAt: now, updatedAt: now })
    .where(claimable(id))
    .returning();
  return rows[0];
}

export async function setPaymentStatus(db: Db, id: string, status: PaymentStatus, now: Date): Promise<void> {
  await db.update(payments).set({ status, updatedAt: now }).where(eq(payments.id, id));
}

/**
 * Payments that may have been charged without being processed (a crash between charge and order
 * creation): charged ones, and Stripe ones not yet known to be charged, newer than `since`.
 */
export async function listUnprocessedPayments(db: Db, since: Date, limit: number): Promise<PaymentRow[]> {
  return db
    .select()
    .from(payments)
    .where(
      and(
        isNull(payments.processedAt),
        or(
          eq(payments.status, 'succeeded'),
          and(
            eq(payments.status, 'requires_payment'),
            eq(payments.provider, 'stripe'),
            gt(payments.createdAt, since),
          ),
        ),
      ),
    )
    .orderBy(asc(payments.createdAt))
    .limit(limit);
}

export async function insertRefund(db: Db, values: typeof refunds.$inferInsert): Promise<RefundRow> {
  const rows = await db.insert(refunds).values(values).returning();
  const row = rows[0];
  if (!row) throw new Error('refund insert returned no row');
  return row;
}

/** What has been refunded of a payment so far, in cents as numeric text. */
export async function sumRefundsOfPayment(db: Db, paymentId: string): Promise<string> {
  const rows = await db
    .select({ total: sql<string>`coalesce(sum(${refunds.amount}), 0)::text` })
    .from(refunds)
    .where(eq(refunds.paymentId, paymentId));
  return rows[0]?.total ?? '0';
}

export async function listRefundsOfPayment(db: Db, paymentId: string): Promise<RefundRow[]> {
  return db.select().from(refunds).where(eq(refunds.paymentId, paymentId)).orderBy(asc(refunds.createdAt));
}

/** Refunds recorded but not yet confirmed by the provider (the call failed or the process stopped). */
export async function listPendingRefunds(db: Db, limit: number): Promise<RefundRow[]> {
  return db
    .select()
    .from(refunds)
    .where(isNull(refunds.providerRefundId))
    .orderBy(asc(refunds.createdAt))
    .limit(limit);
}

export async function setProviderRefundId(db: Db, id: string, providerRefundId: string): Promise<void> {
  await db
    .update(refunds)
    .set({ providerRefundId })
    .where(and(eq(refunds.id, id), isNull(refunds.providerRefundId)));
}
