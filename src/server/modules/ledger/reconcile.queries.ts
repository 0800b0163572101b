import { isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  disputeParts,
  disputes,
  ledgerEntries,
  orders,
  payments,
  payoutReversals,
  payouts,
  refunds,
} from '../../db/schema';

/**
 * What reconcile reads, whole: sums of the ledger by what they refer to, and the stored payments, orders,
 * refunds, payouts and the shares taken back from them they must agree with. Sums are numeric text, parsed to
 * cents by the caller.
 */
export async function readReconcileFacts(db: Db) {
  const [ledgerByPayment, ledgerByOrder, ledgerByRefund, ledgerByPayout, ledgerByKind] = await Promise.all([
    db
      .select({
        paymentId: ledgerEntries.paymentId,
        kind: ledgerEntries.kind,
        total: sql<string>`sum(${ledgerEntries.amount})::text`,
      })
      .from(ledgerEntries)
      .where(sql`${ledgerEntries.kind} in ('charge','refund','refund_failure')`)
      .groupBy(ledgerEntries.paymentId, ledgerEntries.kind),
    db
      .select({
        orderId: ledgerEntries.orderId,
        kind: ledgerEntries.kind,
        total: sql<string>`sum(${ledgerEntries.amount})::text`,
      })
      .from(ledgerEntries)
      .where(isNotNull(ledgerEntries.orderId))
      .groupBy(ledgerEntries.orderId, ledgerEntries.kind),
    db
      .select({
        refundId: ledgerEntries.refundId,
        kind: ledgerEntries.kind,
        total: sql<string>`sum(${ledgerEntries.amount})::text`,
      })
      .from(ledgerEntries)
      .where(sql`${ledgerEntries.kind} in ('refund','refund_failure')`)
      .groupBy(ledgerEntries.refundId, ledgerEntries.kind),
    db
      .select({
        payoutId: ledgerEntries.payoutId,
        kind: ledgerEntries.kind,
        total: sql<string>`sum(${ledgerEntries.amount})::text`,
      })
      .from(ledgerEntries)
      .where(
        // A loss cancelled for a prevented dispute's failed refund belongs to the dispute, not a payout.
        sql`${ledgerEntries.kind} in ('transfer','reversal','reversal_loss','restore_transfer','loss_cancelled') and (${ledgerEntries.payoutId} is not null or ${ledgerEntries.disputeId} is null)`,
      )
      .groupBy(ledgerEntries.payoutId, ledgerEntries.kind),
    db
      .select({ kind: ledgerEntries.kind, total: sql<string>`sum(${ledgerEntries.amount})::text` })
      .from(ledgerEntries)
      .groupBy(ledgerEntries.kind),
  ]);
  const [ledgerByDispute, disputeRows] = await Promise.all([
    db
      .select({
        disputeId: ledgerEntries.disputeId,
        kind: ledgerEntries.kind,
        total: sql<string>`sum(${ledgerEntries.amount})::text`,
      })
      .from(ledgerEntries)
      .where(
        sql`(${ledgerEntries.kind} in ('dispute','dispute_fee','dispute_reinstated','dispute_fee_reinstated','dispute_loss') or (${ledgerEntries.kind} = 'loss_cancelled' and ${ledgerEntries.payoutId} is null and ${ledgerEntries.disputeId} is not null))`,
      )
      .groupBy(ledgerEntries.disputeId, ledgerEntries.kind),
    db
      .select({
        id: disputes.id,
        providerDisputeId: disputes.providerDisputeId,
        status: disputes.status,
        amount: disputes.amount,
        outcomeHandledAt: disputes.outcomeHandledAt,
      })
      .from(disputes),
  ]);
  const [paymentRows, orderRows, refundRows, payoutRows, reversalRows, disputeFeeBackRows, disputePartRows] =
    await Promise.all([
      db
        .select({ id: payments.id, amount: payments.amount, processedAt: payments.processedAt })
        .from(payments),
      db
        .select({
          id: orders.id,
          orderNumber: orders.orderNumber,
          paymentId: orders.paymentId,
          status: orders.status,
          total: orders.total,
          sellerId: orders.sellerId,
          driverId: orders.driverId,
          sellerEarnings: orders.sellerEarnings,
          driverEarnings: orders.driverEarnings,
          platformFee: orders.platformFee,
        })
        .from(orders),
      db
        .select({
          id: refunds.id,
          paymentId: refunds.paymentId,
          orderId: refunds.orderId,
          amount: refunds.amount,
          status: refunds.status,
          undoneAt: refunds.undoneAt,
        })
        .from(refunds),
      db
        .select({
          id: payouts.id,
          orderId: payouts.orderId,
          userId: payouts.userId,
          kind: payouts.kind,
          amount: payouts.amount,
          status: payouts.status,
        })
        .from(payouts),
      db
        .select({
          payoutId: payoutReversals.payoutId,
          refundId: payoutReversals.refundId,
          disputeId: payoutReversals.disputeId,
          status: payoutReversals.status,
          amount: payoutReversals.amount,
          providerReversalId: payoutReversals.providerReversalId,
        })
        .from(payoutReversals),
      // The platform fee given back for lost disputes (the rest was given back for refunds), less what
      // was earned again when a prevented dispute's refund failed.
      db
        .select({
          orderId: ledgerEntries.orderId,
          total: sql<string>`sum(case when ${ledgerEntries.kind} = 'platform_fee_refund' then ${ledgerEntries.amount} else -${ledgerEntries.amount} end)::text`,
        })
        .from(ledgerEntries)
        .where(
          sql`${ledgerEntries.kind} in ('platform_fee_refund','platform_fee_restored') and ${ledgerEntries.disputeId} is not null`,
        )
        .groupBy(ledgerEntries.orderId),
      // Each order's parts of lost disputes (docs/decisions/0022-money-in-combinations.md).
      db
        .select({
          disputeId: disputeParts.disputeId,
          orderId: disputeParts.orderId,
          amount: disputeParts.amount,
          takenBackAt: disputeParts.takenBackAt,
          undoneAt: disputeParts.undoneAt,
        })
        .from(disputeParts),
    ]);
  return {
    ledgerByPayment,
    ledgerByOrder,
    ledgerByRefund,
    ledgerByPayout,
    ledgerByKind,
    paymentRows,
    orderRows,
    refundRows,
    payoutRows,
    ledgerByDispute,
    disputeRows,
    reversalRows,
    disputeFeeBackRows,
    disputePartRows,
  };
}

export type ReconcileFacts = Awaited<ReturnType<typeof readReconcileFacts>>;
