import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import { builtOnce } from '../../db/built-once';
import type { Db } from '../../db/client';
import { ledgerEntries, payments } from '../../db/schema';

export type LedgerRow = typeof ledgerEntries.$inferSelect;
export type NewLedgerRow = typeof ledgerEntries.$inferInsert;

/** A movement as it is appended: every column named, null where it does not apply. */
export type NewLedgerEntry = Required<Omit<NewLedgerRow, 'id'>>;

/** Appends one movement; an entry whose key is taken is a retry and writes nothing. */
export async function insertLedgerEntry(db: Db, entry: NewLedgerEntry): Promise<boolean> {
  const rows = await ledgerInsert(db).execute(entry);
  return rows.length > 0;
}

/**
 * Built once: every paid checkout appends its charge
 * (docs/decisions/0028-checkout-throughput.md, Statements built once).
 */
const ledgerInsert = builtOnce((db) =>
  db
    .insert(ledgerEntries)
    .values({
      entryKey: sql.placeholder('entryKey'),
      kind: sql.placeholder('kind'),
      amount: sql.placeholder('amount'),
      currency: sql.placeholder('currency'),
      paymentId: sql.placeholder('paymentId'),
      orderId: sql.placeholder('orderId'),
      userId: sql.placeholder('userId'),
      refundId: sql.placeholder('refundId'),
      payoutId: sql.placeholder('payoutId'),
      disputeId: sql.placeholder('disputeId'),
      providerReference: sql.placeholder('providerReference'),
      createdAt: sql.placeholder('createdAt'),
    })
    .onConflictDoNothing({ target: ledgerEntries.entryKey })
    .returning({ id: ledgerEntries.id })
    .prepare(''),
);

/** One page of the ledger in the order it was written, after the entry `afterId`. */
export async function listLedgerPage(db: Db, afterId: number, limit: number): Promise<LedgerRow[]> {
  return db
    .select()
    .from(ledgerEntries)
    .where(gt(ledgerEntries.id, afterId))
    .orderBy(asc(ledgerEntries.id))
    .limit(limit);
}

/** The buyer and currency a refund's entry names. */
export async function findPaymentOfLedger(
  db: Db,
  paymentId: string,
): Promise<{ buyerId: string; currency: string } | undefined> {
  const [row] = await db
    .select({ buyerId: payments.buyerId, currency: payments.currency })
    .from(payments)
    .where(eq(payments.id, paymentId));
  return row;
}

/**
 * How each kind of entry counts in what the platform keeps (docs/decisions/0018-money-against-stripe.md,
 * Platform balance): its fees, less fees given back, the provider's fees, dispute fees (plus any
 * Stripe gave back) and transfers it could not take back. Reconcile uses the same.
 */
export const PLATFORM_BALANCE_SIGNS = {
  platform_fee: 1,
  platform_fee_refund: -1,
  provider_fee: -1,
  // A dispute's amount is the buyer's money, held while the dispute is open and taken back from the
  // sellers and drivers like a refund when it is lost; its fee is the platform's cost.
  dispute_fee: -1,
  dispute_fee_reinstated: 1,
  reversal_loss: -1,
  // A refund that failed is undone (docs/decisions/0022-money-in-combinations.md): the fee's part is
  // earned again and a loss borne for it is cancelled. Money a lost dispute took again after a refund
  // had given it back is the platform's loss.
  platform_fee_restored: 1,
  loss_cancelled: 1,
  dispute_loss: -1,
} as const;

/** The platform's balance (see PLATFORM_BALANCE_SIGNS), as numeric text. */
export async function sumPlatformBalance(db: Db): Promise<string> {
  const plus = Object.entries(PLATFORM_BALANCE_SIGNS)
    .filter(([, sign]) => sign > 0)
    .map(([kind]) => kind);
  const minus = Object.entries(PLATFORM_BALANCE_SIGNS)
    .filter(([, sign]) => sign < 0)
    .map(([kind]) => kind);
  const [row] = await db
    .select({
      total: sql<string>`coalesce(sum(case when ${inArray(ledgerEntries.kind, plus)} then ${ledgerEntries.amount} when ${inArray(ledgerEntries.kind, minus)} then -${ledgerEntries.amount} else 0 end), 0)::text`,
    })
    .from(ledgerEntries);
  return row?.total ?? '0';
}

/** The ledger's total of one kind for an order, as numeric text. */
export async function sumOrderLedger(db: Db, orderId: string, kind: string): Promise<string> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)::text` })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.orderId, orderId), eq(ledgerEntries.kind, kind)));
  return row?.total ?? '0';
}

/** The ledger's total of one kind for one order's part of a dispute, as numeric text. */
export async function sumDisputeOrderLedger(
  db: Db,
  disputeId: string,
  orderId: string,
  kind: string,
): Promise<string> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)::text` })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.disputeId, disputeId),
        eq(ledgerEntries.orderId, orderId),
        eq(ledgerEntries.kind, kind),
      ),
    );
  return row?.total ?? '0';
}

/** A prevented dispute's money that left through a refund Stripe made: its `dispute` entry, by the refund's id. */
export async function findDisputeEntryOfRefund(db: Db, providerRefundId: string) {
  const [row] = await db
    .select({
      disputeId: ledgerEntries.disputeId,
      paymentId: ledgerEntries.paymentId,
      amount: ledgerEntries.amount,
      currency: ledgerEntries.currency,
    })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.kind, 'dispute'), eq(ledgerEntries.providerReference, providerRefundId)))
    .limit(1);
  return row;
}

/** The ledger's total of one kind for a dispute, as numeric text. */
export async function sumDisputeLedger(db: Db, disputeId: string, kind: string): Promise<string> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)::text` })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.disputeId, disputeId), eq(ledgerEntries.kind, kind)));
  return row?.total ?? '0';
}

/** The ledger's total of one kind for a refund, as numeric text. */
export async function sumRefundLedger(db: Db, refundId: string, kind: string): Promise<string> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)::text` })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.refundId, refundId), eq(ledgerEntries.kind, kind)));
  return row?.total ?? '0';
}
