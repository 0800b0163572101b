import { and, gte, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { ledgerEntries, payments, refunds } from '../../db/schema';

/**
 * The ledger entries the provider records too, written in the window, with the provider's id of
 * each: a charge entry names its payment's charge (`payments.provider_charge_id`; entries written
 * before it was known name the intent); every other kind names its own (docs/decisions/
 * 0018-money-against-stripe.md, Reconcile against the provider). And the provider ids of the
 * refunds still waiting (pending, requires_action), which the ledger records only once they succeed.
 */
export async function readProviderLedger(db: Db, window: { from: Date; to: Date }, kinds: readonly string[]) {
  const [entries, waiting] = await Promise.all([
    db
      .select({
        entryKey: ledgerEntries.entryKey,
        kind: ledgerEntries.kind,
        amount: sql<string>`${ledgerEntries.amount}::text`,
        reference: sql<
          string | null
        >`case when ${ledgerEntries.kind} = 'charge' then coalesce(${payments.providerChargeId}, ${ledgerEntries.providerReference}) else ${ledgerEntries.providerReference} end`,
        createdAt: ledgerEntries.createdAt,
      })
      .from(ledgerEntries)
      .leftJoin(payments, sql`${payments.id} = ${ledgerEntries.paymentId}`)
      .where(
        and(
          inArray(ledgerEntries.kind, [...kinds]),
          gte(ledgerEntries.createdAt, window.from),
          lt(ledgerEntries.createdAt, window.to),
        ),
      ),
    db
      .select({ providerRefundId: refunds.providerRefundId })
      .from(refunds)
      .where(
        and(isNotNull(refunds.providerRefundId), inArray(refunds.status, ['pending', 'requires_action'])),
      ),
  ]);
  return {
    entries,
    refundsInFlight: waiting.flatMap((row) => (row.providerRefundId ? [row.providerRefundId] : [])),
  };
}

export type ProviderLedgerRow = Awaited<ReturnType<typeof readProviderLedger>>['entries'][number];
