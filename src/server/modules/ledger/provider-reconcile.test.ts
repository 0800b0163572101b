import { describe, expect, it } from 'vitest';
import type { ProviderBalanceTransaction } from '../../adapters/payments/payment-provider';
import { matchProviderTransactions, type ProviderLedgerEntry } from './provider-reconcile';

/** The match of the provider's balance transactions to the ledger, on plain arrays (docs/decisions/0018-money-against-stripe.md). */
const at = new Date('2026-11-10T12:00:00Z');
const period = { from: new Date('2026-11-01T00:00:00Z'), to: new Date('2026-11-26T00:00:00Z') };

const bt = (
  type: string,
  source: string,
  amount: number,
  fee = 0,
  created = at,
): ProviderBalanceTransaction => ({
  id: `txn_${source}`,
  type,
  amount,
  fee,
  currency: 'usd',
  source,
  created,
});
const entry = (
  kind: string,
  key: string,
  reference: string | null,
  amount: number,
  createdAt = at,
): ProviderLedgerEntry => ({
  entryKey: `${kind}:${key}`,
  kind,
  amount,
  reference,
  createdAt,
});

/** One order's money at the provider and in the ledger: a $100 charge with its fee, a $20 and a $9 transfer, a refund and a reversal. */
const provider = [
  bt('charge', 'ch_1', 10_000, 320),
  bt('transfer', 'tr_s', -2_000),
  bt('transfer', 'tr_d', -900),
  bt('refund', 're_1', -10_000),
  bt('transfer_refund', 'trr_s', 2_000),
  bt('payout', 'po_1', -5_000),
];
const ledger = [
  entry('charge', 'p1', 'ch_1', 10_000),
  entry('provider_fee', 'p1', 'ch_1', 320),
  entry('transfer', 'seller', 'tr_s', 2_000),
  entry('transfer', 'driver', 'tr_d', 900),
  entry('refund', 'r1', 're_1', 10_000),
  entry('reversal', 'seller', 'trr_s', 2_000),
];

describe('matching the provider to the ledger', () => {
  it('finds nothing when every movement is on both sides, and leaves the bank payouts out', () => {
    const report = matchProviderTransactions({ provider, ledger, period });
    expect(report.discrepancies).toEqual([]);
    expect(report.compared).toEqual({ charge: 1, provider_fee: 1, transfer: 2, refund: 1, reversal: 1 });
    expect(report.notCompared).toEqual({ payout: 1 });
  });

  it('names a transfer made twice at the provider and one the provider never made', () => {
    const report = matchProviderTransactions({
      provider: [...provider.filter((t) => t.source !== 'tr_d'), bt('transfer', 'tr_again', -2_000)],
      ledger,
      period,
    });
    expect(report.discrepancies).toEqual([
      'ledger transfer:driver tr_d $9.00 is not at the provider',
      'transfer tr_again $20.00 at the provider is not in the ledger',
    ]);
  });

  it('names a fee left out of the ledger and an amount that differs', () => {
    const report = matchProviderTransactions({
      provider,
      ledger: ledger
        .filter((e) => e.kind !== 'provider_fee')
        .map((e) => (e.reference === 'tr_s' ? { ...e, amount: 1_900 } : e)),
      period,
    });
    expect(report.discrepancies).toEqual([
      'provider_fee ch_1 $3.20 at the provider is not in the ledger',
      'transfer tr_s is $20.00 at the provider, $19.00 in the ledger (transfer:seller)',
    ]);
  });

  it('matches disputes withdrawn and reinstated, a failed refund, and a refund still pending', () => {
    // A dispute's balance transactions all have the dispute as source; the ledger names each by its own id.
    const withdrawn = { ...bt('adjustment', 'du_1', -5_000, 1_500), id: 'txn_w' };
    const reinstated = { ...bt('adjustment', 'du_1', 5_000, -1_500), id: 'txn_r' };
    const report = matchProviderTransactions({
      provider: [
        withdrawn,
        reinstated,
        bt('refund', 're_failed', -700),
        bt('refund_failure', 're_failed', 700),
        bt('refund', 're_pending', -300),
      ],
      ledger: [
        entry('dispute', 'd1', 'txn_w', 5_000),
        entry('dispute_fee', 'd1', 'txn_w', 1_500),
        entry('dispute_reinstated', 'd1', 'txn_r', 5_000),
        entry('dispute_fee_reinstated', 'd1', 'txn_r', 1_500),
      ],
      period,
      refundsInFlight: new Set(['re_pending']),
    });
    expect(report.discrepancies).toEqual([]);
    expect(report.notes).toEqual(['refund re_pending $3.00 is still pending in our records']);
    expect(report.compared).toMatchObject({
      dispute: 1,
      dispute_fee: 1,
      dispute_reinstated: 1,
      dispute_fee_reinstated: 1,
    });
  });

  it("reads a dispute's countered fee (amount 0, a fee) as a fee charged, not money given back", () => {
    const report = matchProviderTransactions({
      provider: [
        { ...bt('adjustment', 'du_2', -5_000, 1_500), id: 'txn_w' },
        { ...bt('adjustment', 'du_2', 0, 1_500), id: 'txn_c' },
      ],
      ledger: [entry('dispute', 'd2', 'txn_w', 5_000), entry('dispute_fee', 'd2', 'txn_w', 1_500)],
      period,
    });
    expect(report.discrepancies).toEqual(['dispute_fee txn_c $15.00 at the provider is not in the ledger']);
  });

  it('reports only movements of the period, matched across its edges, and entries naming no provider id', () => {
    const before = new Date('2026-10-31T23:59:00Z');
    const after = new Date('2026-11-26T00:01:00Z');
    const report = matchProviderTransactions({
      provider: [bt('charge', 'ch_edge', 5_000, 0, before), bt('transfer', 'tr_late', -100, 0, after)],
      ledger: [
        entry('charge', 'p2', 'ch_edge', 5_000, new Date('2026-11-01T00:01:00Z')),
        entry('transfer', 'x', null, 400),
      ],
      period,
    });
    expect(report.discrepancies).toEqual(['ledger transfer:x $4.00 names no provider id']);
    expect(report.compared).toEqual({ charge: 1 });
  });
});
