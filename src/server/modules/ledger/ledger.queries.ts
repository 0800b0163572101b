import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { ledgerEntries, payments } from '../../db/schema';

export type LedgerRow = typeof ledgerEntries.$inferSelect;
export type NewLedgerRow = typeof ledgerEntries.$inferInsert;

/** Appends one movement; an entry whose key is taken is a retry and writes nothing. */
export async function insertLedgerEntry(db: Db, entry: NewLedgerRow): Promise<boolean> {
  const rows = await db
    .insert(ledgerEntries)
    .values(entry)
    .onConflictDoNothing({ target: ledgerEntries.entryKey })
    .returning({ id: ledgerEntries.id });
  return rows.length > 0;
}

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

/** The platform's fees earned less fees given back and losses it bore (reversal_loss), as numeric text. */
export async function sumPlatformBalance(db: Db): Promise<string> {
  const [row] = await db
    .select({
      total: sql<string>`coalesce(sum(case ${ledgerEntries.kind} when 'platform_fee' then ${ledgerEntries.amount} when 'platform_fee_refund' then -${ledgerEntries.amount} when 'reversal_loss' then -${ledgerEntries.amount} else 0 end), 0)::text`,
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
