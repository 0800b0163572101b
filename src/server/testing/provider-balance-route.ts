import type { FakeCharge, FakeRefund, FakeStripeRoute } from './stripe-server';
import type { FakeTransfer } from './stripe-connect-transfers';

/**
 * The platform's balance transactions for the local Stripe server (passed as one of its `routes`),
 * computed from its charges, refunds and Connect transfers, in Stripe's documented shape
 * (docs.stripe.com/api/balance_transactions/object): `id`, `object`, `amount` (signed: money in
 * positive), `fee`, `fee_details`, `net`, `currency`, `source`, `type`, `created`, `status`.
 * - GET /v1/charges/:id, with `balance_transaction` expanded when asked (`expand[]`), null while
 *   the charge is listed in `pendingFees`.
 * - GET /v1/balance_transactions (`created[gte]`, `created[lt]`, `limit`, `starting_after`),
 *   newest first: a `charge` per charge with Stripe's US card fee (2.9% + 30¢), a `refund` per
 *   refund that did not fail (a failed one is a `refund` and a `refund_failure`), a `transfer`
 *   per transfer and a `transfer_refund` per reversal.
 * A stand-in until the faithful fake's own balance transactions land; only these fields are read.
 */
export interface FakeBalance {
  route: FakeStripeRoute;
  /** Charges whose balance transaction Stripe has not made yet (`balance_transaction: null`). */
  pendingFees: Set<string>;
  bind(sources: { charges: Map<string, FakeCharge>; refunds: FakeRefund[]; transfers: FakeTransfer[] }): void;
}

/** Stripe's standard fee for a US card: 2.9% + 30¢ (stripe.com/pricing). */
export const cardFeeOf = (amount: number) => Math.round(amount * 0.029) + 30;

interface BalanceTransaction {
  id: string;
  object: 'balance_transaction';
  amount: number;
  available_on: number;
  created: number;
  currency: string;
  description: string | null;
  fee: number;
  fee_details: { amount: number; currency: string; type: string; description: string }[];
  net: number;
  reporting_category: string;
  source: string;
  status: 'available';
  type: string;
}

function transaction(
  type: string,
  source: string,
  amount: number,
  currency: string,
  created: number,
  fee = 0,
): BalanceTransaction {
  return {
    id: `txn_${type === 'refund_failure' ? 'f' : ''}${source.slice(source.indexOf('_') + 1)}`,
    object: 'balance_transaction',
    amount,
    available_on: created,
    created,
    currency,
    description: null,
    fee,
    fee_details: fee
      ? [{ amount: fee, currency, type: 'stripe_fee', description: 'Stripe processing fees' }]
      : [],
    net: amount - fee,
    reporting_category: type === 'transfer_refund' ? 'transfer_reversal' : type,
    source,
    status: 'available',
    type,
  };
}

export function createFakeBalance(): FakeBalance {
  let charges = new Map<string, FakeCharge>();
  let refunds: FakeRefund[] = [];
  let transfers: FakeTransfer[] = [];
  const pendingFees = new Set<string>();

  const chargeTransaction = (charge: FakeCharge) =>
    transaction(
      'charge',
      charge.id,
      charge.amount,
      charge.currency,
      charge.created,
      cardFeeOf(charge.amount),
    );

  const all = (): BalanceTransaction[] => {
    const list: BalanceTransaction[] = [];
    for (const charge of charges.values())
      if (!pendingFees.has(charge.id)) list.push(chargeTransaction(charge));
    for (const refund of refunds) {
      if (refund.status === 'canceled') continue;
      list.push(transaction('refund', refund.id, -refund.amount, refund.currency, refund.created));
      if (refund.status === 'failed')
        list.push(transaction('refund_failure', refund.id, refund.amount, refund.currency, refund.created));
    }
    for (const transfer of transfers) {
      list.push(transaction('transfer', transfer.id, -transfer.amount, transfer.currency, transfer.created));
      for (const reversal of transfer.reversals.data)
        list.push(
          transaction('transfer_refund', reversal.id, reversal.amount, reversal.currency, reversal.created),
        );
    }
    return list.sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1));
  };

  const route: FakeStripeRoute = (req) => {
    if (req.method !== 'GET') return undefined;
    const { query } = req;
    if (req.path === '/v1/balance_transactions') {
      const gte = Number(query.get('created[gte]') ?? -Infinity);
      const lt = Number(query.get('created[lt]') ?? Infinity);
      const found = all().filter((t) => t.created >= gte && t.created < lt);
      const limit = Math.min(Number(query.get('limit') ?? 10) || 10, 100);
      const after = query.get('starting_after');
      const start = after ? found.findIndex((t) => t.id === after) + 1 : 0;
      return {
        body: {
          object: 'list',
          url: '/v1/balance_transactions',
          has_more: start + limit < found.length,
          data: found.slice(start, start + limit),
        },
      };
    }
    const match = /^\/v1\/charges\/([^/]+)$/.exec(req.path);
    const charge = match?.[1] ? charges.get(decodeURIComponent(match[1])) : undefined;
    if (!charge) return undefined;
    const expanded = [...query.entries()].some(
      ([key, value]) => key.startsWith('expand') && value === 'balance_transaction',
    );
    const balance = pendingFees.has(charge.id) ? null : chargeTransaction(charge);
    return {
      body: { ...charge, balance_transaction: balance && (expanded ? balance : balance.id) },
    };
  };

  return {
    route,
    pendingFees,
    bind(sources) {
      charges = sources.charges;
      refunds = sources.refunds;
      transfers = sources.transfers;
    },
  };
}
