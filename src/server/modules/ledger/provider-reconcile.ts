import type { Db } from '../../db/client';
import { formatCents, parseCents, type Cents } from '../../../domain/money';
import type { ProviderBalanceTransaction } from '../../adapters/payments/payment-provider';
import { readProviderLedger, type ProviderLedgerRow } from './provider-reconcile.queries';

/**
 * Reconcile against the provider (docs/decisions/0018-money-against-stripe.md, Reconcile against
 * the provider): the provider's balance transactions of a period matched to the ledger by the
 * provider's id of each movement, both ways.
 */

/** A ledger entry the provider also records, with the provider's id of its movement. */
export interface ProviderLedgerEntry {
  entryKey: string;
  kind: string;
  amount: Cents;
  /** `ch_…` for a charge and its provider fee, `re_…`, `tr_…`, `trr_…`, a dispute's balance transaction `txn_…`. */
  reference: string | null;
  createdAt: Date;
}

export interface ProviderMatchInput {
  /** The provider's balance transactions of the period widened by the margin on both sides. */
  provider: ProviderBalanceTransaction[];
  /** The ledger's entries of the comparable kinds in the same widened window. */
  ledger: ProviderLedgerEntry[];
  /** Only movements of [from, to) are reported; the margin lets one recorded a little earlier or later match. */
  period: { from: Date; to: Date };
  /** Provider ids of refunds our records still wait for (pending, requires_action): not in the ledger yet, by design. */
  refundsInFlight?: ReadonlySet<string>;
}

export interface ProviderMatchReport {
  discrepancies: string[];
  /** Movements waiting on our side, not discrepancies (a pending refund). */
  notes: string[];
  /** How many movements of each ledger kind were compared. */
  compared: Record<string, number>;
  /** Balance transactions of types the ledger does not record (payouts to the bank, Stripe's other fees), by type. */
  notCompared: Record<string, number>;
}

/** The ledger kinds the provider records too; platform fees and reversal losses are the platform's own. */
export const PROVIDER_KINDS = [
  'charge',
  'provider_fee',
  'refund',
  'transfer',
  'reversal',
  'dispute',
  'dispute_fee',
  'dispute_reinstated',
  'dispute_fee_reinstated',
  // Counted as a refund's failure and as a transfer (docs/decisions/0022-money-in-combinations.md).
  'refund_failure',
  'restore_transfer',
] as const;

interface Expected {
  kind: string;
  reference: string;
  amount: Cents;
}

/**
 * What a balance transaction means in ledger entries (Stripe's balance transaction types,
 * docs.stripe.com/reports/balance-transaction-types): a charge (or `payment`) is the charge and its
 * fee; a refund (or `payment_refund`) is the refund, taken back by a `refund_failure`; a transfer
 * and a transfer reversal (`transfer_refund`, its source the reversal trr_…); an `adjustment` whose
 * source is a dispute is the disputed amount withdrawn or reinstated, and the dispute fee charged
 * or given back, matched by the balance transaction's own id (docs.stripe.com/api/disputes/object:
 * `balance_transactions`).
 * Anything else answers undefined: the ledger does not record it.
 */
function expectedOf(transaction: ProviderBalanceTransaction): Expected[] | undefined {
  const { source, amount, fee } = transaction;
  if (!source) return undefined;
  switch (transaction.type) {
    case 'charge':
    case 'payment':
      return [
        { kind: 'charge', reference: source, amount },
        { kind: 'provider_fee', reference: source, amount: fee },
      ];
    case 'refund':
    case 'payment_refund':
    case 'refund_failure':
    case 'payment_failure_refund':
      return [{ kind: 'refund', reference: source, amount: -amount }];
    case 'transfer':
      return [{ kind: 'transfer', reference: source, amount: -amount }];
    case 'transfer_refund':
      return [{ kind: 'reversal', reference: source, amount }];
    case 'adjustment': {
      // A dispute's adjustment: its source is the dispute (du_…, dp_… before), and the ledger
      // names each of its movements by the balance transaction itself (the withdrawal, the
      // reinstatement, a countered fee: one dispute, several transactions). The amount is the
      // disputed money out (negative) or back (positive); the fee is charged (positive) or given
      // back (negative); a countered fee is an adjustment of amount 0 with a positive fee.
      if (!/^(dp|du)_/.test(source)) return undefined;
      const expected: Expected[] = [];
      const reference = transaction.id;
      if (amount < 0) expected.push({ kind: 'dispute', reference, amount: -amount });
      if (amount > 0) expected.push({ kind: 'dispute_reinstated', reference, amount });
      if (fee > 0) expected.push({ kind: 'dispute_fee', reference, amount: fee });
      if (fee < 0) expected.push({ kind: 'dispute_fee_reinstated', reference, amount: -fee });
      return expected;
    }
    default:
      return undefined;
  }
}

const money = (cents: Cents) => `$${formatCents(cents)}`;
const inPeriod = (at: Date, period: { from: Date; to: Date }) => at >= period.from && at < period.to;

interface Side {
  total: Cents;
  inPeriod: boolean;
  entries: ProviderLedgerEntry[];
}

/**
 * Matches the provider's movements to the ledger's, both ways, by kind and provider id, and names
 * every one missing on either side and every amount that differs. Pure: the tests give it arrays.
 */
export function matchProviderTransactions(input: ProviderMatchInput): ProviderMatchReport {
  const { period } = input;
  const discrepancies: string[] = [];
  const notes: string[] = [];
  const compared: Record<string, number> = {};
  const notCompared: Record<string, number> = {};
  const provider = new Map<string, Side>();
  const ledger = new Map<string, Side>();
  const keyOf = (kind: string, reference: string) => `${kind} ${reference}`;
  const add = (
    sides: Map<string, Side>,
    key: string,
    amount: Cents,
    at: Date,
    entry?: ProviderLedgerEntry,
  ) => {
    const side = sides.get(key) ?? { total: 0, inPeriod: false, entries: [] };
    side.total += amount;
    side.inPeriod ||= inPeriod(at, period);
    if (entry) side.entries.push(entry);
    sides.set(key, side);
  };

  for (const transaction of input.provider) {
    const expected = expectedOf(transaction);
    if (!expected) {
      if (inPeriod(transaction.created, period))
        notCompared[transaction.type] = (notCompared[transaction.type] ?? 0) + 1;
      continue;
    }
    for (const item of expected)
      add(provider, keyOf(item.kind, item.reference), item.amount, transaction.created);
  }
  for (const entry of input.ledger) {
    if (!entry.reference) {
      if (inPeriod(entry.createdAt, period))
        discrepancies.push(`ledger ${entry.entryKey} ${money(entry.amount)} names no provider id`);
      continue;
    }
    // A refund's failure gives its money back: at the provider it nets the refund (refund_failure); a share
    // transferred back after a failed refund is a transfer like any other. A prevented dispute's money left
    // through a refund Stripe made (docs/decisions/0022-money-in-combinations.md).
    const [kind, amount] =
      entry.kind === 'refund_failure'
        ? ['refund', -entry.amount]
        : entry.kind === 'restore_transfer'
          ? ['transfer', entry.amount]
          : entry.kind === 'dispute' && entry.reference.startsWith('re_')
            ? ['refund', entry.amount]
            : // That refund failing brings it back (A prevented dispute whose refund fails).
              entry.kind === 'dispute_reinstated' && entry.reference.startsWith('re_')
              ? ['refund', -entry.amount]
              : [entry.kind, entry.amount];
    add(ledger, keyOf(kind, entry.reference), amount, entry.createdAt, entry);
  }

  for (const key of new Set([...provider.keys(), ...ledger.keys()])) {
    const atProvider = provider.get(key);
    const inLedger = ledger.get(key);
    if (!atProvider?.inPeriod && !inLedger?.inPeriod) continue;
    const kind = key.slice(0, key.indexOf(' '));
    compared[kind] = (compared[kind] ?? 0) + 1;
    const providerTotal = atProvider?.total ?? 0;
    const ledgerTotal = inLedger?.total ?? 0;
    if (providerTotal === ledgerTotal) continue;
    if (!inLedger) {
      const reference = key.slice(kind.length + 1);
      if (kind === 'refund' && input.refundsInFlight?.has(reference))
        notes.push(`${key} ${money(providerTotal)} is still pending in our records`);
      else discrepancies.push(`${key} ${money(providerTotal)} at the provider is not in the ledger`);
    } else if (!atProvider || providerTotal === 0) {
      for (const entry of inLedger.entries)
        discrepancies.push(
          `ledger ${entry.entryKey} ${entry.reference ?? ''} ${money(entry.amount)} is not at the provider`,
        );
    } else {
      discrepancies.push(
        `${key} is ${money(providerTotal)} at the provider, ${money(ledgerTotal)} in the ledger (${inLedger.entries.map((e) => e.entryKey).join(', ')})`,
      );
    }
  }
  return { discrepancies: discrepancies.sort(), notes: notes.sort(), compared, notCompared };
}

/** What a provider offers reconcile: its name and, unless it is the built-in one, its balance transactions. */
export interface BalanceSource {
  readonly name: string;
  listBalanceTransactions?(period: { from: Date; to: Date }): AsyncIterable<ProviderBalanceTransaction>;
}

export type ProviderReconcileReport =
  | ({ kind: 'compared'; period: { from: Date; to: Date }; transactions: number } & ProviderMatchReport)
  | { kind: 'nothing-to-compare'; message: string };

/** A movement recorded this long before or after the provider's is still matched (a late fee, a slow payment method). */
export const MATCH_MARGIN_MS = 7 * 24 * 60 * 60 * 1000;

function entryOf(row: ProviderLedgerRow): ProviderLedgerEntry {
  return {
    entryKey: row.entryKey,
    kind: row.kind,
    amount: parseCents(row.amount),
    reference: row.reference,
    createdAt: row.createdAt,
  };
}

/** Reads the provider's balance transactions and the ledger of the period (widened by the margin) and matches them. */
export async function reconcileWithProvider(
  db: Db,
  source: BalanceSource,
  period: { from: Date; to: Date },
): Promise<ProviderReconcileReport> {
  if (!source.listBalanceTransactions)
    return {
      kind: 'nothing-to-compare',
      message: `The ${source.name === 'test' ? 'built-in test' : source.name} provider keeps no balance of its own: there is nothing to compare the ledger with.`,
    };
  const window = {
    from: new Date(period.from.getTime() - MATCH_MARGIN_MS),
    to: new Date(period.to.getTime() + MATCH_MARGIN_MS),
  };
  const provider: ProviderBalanceTransaction[] = [];
  for await (const transaction of source.listBalanceTransactions(window)) provider.push(transaction);
  const { entries, refundsInFlight } = await readProviderLedger(db, window, PROVIDER_KINDS);
  const report = matchProviderTransactions({
    provider,
    ledger: entries.map(entryOf),
    period,
    refundsInFlight: new Set(refundsInFlight),
  });
  return {
    kind: 'compared',
    period,
    transactions: provider.filter((t) => inPeriod(t.created, period)).length,
    ...report,
  };
}

/** The report as the command prints it: one line per discrepancy, the notes, then the figures. */
export function formatProviderReport(report: ProviderReconcileReport): string {
  if (report.kind === 'nothing-to-compare') return `PROVIDER ${report.message}`;
  const lines = [
    ...report.discrepancies.map((d) => `PROVIDER DISCREPANCY ${d}`),
    ...report.notes.map((n) => `PROVIDER NOTE ${n}`),
  ];
  const list = (counts: Record<string, number>) =>
    Object.entries(counts)
      .map(([kind, count]) => `${count} ${kind}`)
      .join(', ') || 'none';
  lines.push(
    `${report.discrepancies.length === 0 ? 'PROVIDER OK' : `PROVIDER ${report.discrepancies.length} discrepancies`}: ` +
      `${report.transactions} balance transactions from ${report.period.from.toISOString()} to ${report.period.to.toISOString()}; ` +
      `compared ${list(report.compared)}; not recorded in the ledger: ${list(report.notCompared)}`,
  );
  return lines.join('\n');
}
