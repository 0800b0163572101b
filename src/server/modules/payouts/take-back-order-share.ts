import type { Db } from '../../db/client';
import { recordMovement, sumOrderMovements } from '../ledger/ledger.service';
import { formatCents, parseCents, shareOf, type Cents } from '../../../domain/money';
import {
  findChargeOfOrder,
  insertPayoutReversal,
  listPayoutsOfOrder,
  lockOrderMoney,
  reduceUnsentPayout,
  sumTakenBackByPayout,
} from './payouts.queries';

export interface TakeBackInput {
  orderId: string;
  /** What the buyer gets back (a refund) or lost to the chargeback (a lost dispute), in cents. */
  amountCents: Cents;
  /** Exactly one of the two names the take-back. */
  refundId?: string;
  disputeId?: string;
  now: Date;
}

export interface TakeBack {
  seller: Cents;
  driver: Cents;
  platformFee: Cents;
  /** Some share was already transferred: a reversal waits (run `settleOrderPayouts` after the commit). */
  reversalsPending: boolean;
}

/**
 * Takes back the order's share of a refund or a lost dispute, inside the caller's transaction
 * (docs/decisions/0018-money-against-stripe.md, Refunds): the seller's, the driver's and the
 * platform's parts are each their earnings × amount / total, counted cumulatively over the order's
 * take-backs so that every cent is taken once and a whole refund takes exactly the earnings, and the
 * three parts sum to the amount. A payout that has not gone out is reduced (a `cancelled` reversal
 * row records it: no money moved); a transferred one gets a `pending` reversal, made after the
 * commit by `settleOrderPayouts` or the retry job. The platform fee's part is given back in the
 * ledger (`platform_fee_refund`, keyed per refund or dispute). Throws when the amount exceeds what is
 * left of the order (callers check first; this is the last guard).
 *
 * For disputes: `takeBackOrderShare(tx, { orderId, amountCents, disputeId, now })` in the
 * transaction that records the lost dispute, then `settleOrderPayouts(deps, orderId)` after it.
 */
export async function takeBackOrderShare(tx: Db, input: TakeBackInput): Promise<TakeBack> {
  if ((input.refundId === undefined) === (input.disputeId === undefined))
    throw new Error('A take-back names either a refund or a dispute');
  const order = await lockOrderMoney(tx, input.orderId);
  if (!order) throw new Error(`No order ${input.orderId}`);
  const total = parseCents(order.total);
  const payouts = await listPayoutsOfOrder(tx, input.orderId);
  const taken = await sumTakenBackByPayout(tx, input.orderId);
  const parties = (['seller', 'driver'] as const).map((kind) => {
    const payout = payouts.find((row) => row.kind === kind);
    const earnings = payout ? parseCents(kind === 'seller' ? order.sellerEarnings : order.driverEarnings) : 0;
    return { kind, payout, earnings, taken: payout ? parseCents(taken.get(payout.id) ?? '0') : 0 };
  });
  const fee = parseCents(order.platformFee);
  const feeTaken = await sumOrderMovements(tx, input.orderId, 'platform_fee_refund');
  const after = feeTaken + parties.reduce((sum, party) => sum + party.taken, 0) + input.amountCents;
  if (input.amountCents <= 0 || after > total)
    throw new Error(`A take-back of ${input.amountCents} exceeds what is left of order ${input.orderId}`);
  // Cumulative shares: each party's target after this take-back, less what it gave already.
  const shares = parties.map((party) => {
    const target = total === 0 ? 0 : shareOf(party.earnings, after, total);
    return Math.min(Math.max(target - party.taken, 0), party.earnings - party.taken);
  });
  let feePart = input.amountCents - shares.reduce((sum, cents) => sum + cents, 0);
  const feeLeft = fee - feeTaken;
  // Rounding can leave the fee's part a cent outside what is left of it: the parties absorb it.
  for (let i = 0; feePart < 0 && i < shares.length; i += 1) {
    const give = Math.min(-feePart, shares[i] ?? 0);
    shares[i] = (shares[i] ?? 0) - give;
    feePart += give;
  }
  for (let i = 0; feePart > feeLeft && i < parties.length; i += 1) {
    const party = parties[i];
    if (!party) continue;
    const room = party.earnings - party.taken - (shares[i] ?? 0);
    const take = Math.min(feePart - feeLeft, room);
    shares[i] = (shares[i] ?? 0) + take;
    feePart -= take;
  }
  if (feePart < 0 || feePart > feeLeft)
    throw new Error(`Order ${input.orderId} cannot give back ${input.amountCents}`);
  let reversalsPending = false;
  for (const [i, party] of parties.entries()) {
    const share = shares[i] ?? 0;
    if (share === 0 || !party.payout) continue;
    const amount = formatCents(share);
    const reduced = await reduceUnsentPayout(tx, party.payout, amount, input.now);
    if (!reduced && !['paid', 'pending'].includes(party.payout.status))
      throw new Error(`Payout ${party.payout.id} is ${party.payout.status}; nothing left to take back`);
    await insertPayoutReversal(tx, {
      payoutId: party.payout.id,
      refundId: input.refundId ?? null,
      disputeId: input.disputeId ?? null,
      amount,
      status: reduced ? 'cancelled' : 'pending',
      createdAt: input.now,
      updatedAt: input.now,
    });
    if (!reduced) reversalsPending = true;
  }
  const charge = await findChargeOfOrder(tx, input.orderId);
  await recordMovement(tx, {
    kind: 'platform_fee_refund',
    key: input.refundId ?? `dispute-${input.disputeId ?? ''}`,
    amount: feePart,
    currency: charge?.currency ?? 'usd',
    paymentId: charge?.paymentId ?? null,
    orderId: input.orderId,
    refundId: input.refundId ?? null,
    disputeId: input.disputeId ?? null,
    at: input.now,
  });
  return { seller: shares[0] ?? 0, driver: shares[1] ?? 0, platformFee: feePart, reversalsPending };
}
