import type { Db } from '../../db/client';
import { recordMovement, sumOrderMovements } from '../ledger/ledger.service';
import { formatCents, parseCents, type Cents } from '../../../domain/money';
import { splitTakeBack } from '../../../domain/money-split';
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
  const payouts = await listPayoutsOfOrder(tx, input.orderId);
  const taken = await sumTakenBackByPayout(tx, input.orderId);
  const parties = (['seller', 'driver'] as const).map((kind) => {
    const payout = payouts.find((row) => row.kind === kind);
    const earned = payout ? parseCents(kind === 'seller' ? order.sellerEarnings : order.driverEarnings) : 0;
    return { kind, payout, earned, taken: payout ? parseCents(taken.get(payout.id) ?? '0') : 0 };
  });
  const feeTaken =
    (await sumOrderMovements(tx, input.orderId, 'platform_fee_refund')) -
    (await sumOrderMovements(tx, input.orderId, 'platform_fee_restored'));
  // A party without a payout earned nothing; what it would have earned stays in the fee's figure.
  const feeEarned = parseCents(order.total) - parties.reduce((sum, party) => sum + party.earned, 0);
  let split;
  try {
    split = splitTakeBack({
      total: parseCents(order.total),
      seller: { earned: parties[0]?.earned ?? 0, taken: parties[0]?.taken ?? 0 },
      driver: { earned: parties[1]?.earned ?? 0, taken: parties[1]?.taken ?? 0 },
      platformFee: { earned: feeEarned, taken: feeTaken },
      amount: input.amountCents,
    });
  } catch (error) {
    throw new Error(`A take-back of ${input.amountCents} exceeds what is left of order ${input.orderId}`, {
      cause: error,
    });
  }
  const shares = [split.seller, split.driver];
  const feePart = split.platformFee;
  let reversalsPending = false;
  for (const [i, party] of parties.entries()) {
    const share = shares[i] ?? 0;
    if (share === 0 || !party.payout) continue;
    const amount = formatCents(share);
    // A payout whose transfer may exist is never reduced: the share waits as a reversal
    // (docs/decisions/0022-money-in-combinations.md, Transfers and their keys).
    const reduced = await reduceUnsentPayout(tx, party.payout, amount, input.now);
    if (!reduced && !['paid', 'pending', 'owed', 'failed', 'refused'].includes(party.payout.status))
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
    // One entry per refund, or per order of a lost dispute (a dispute may take from several orders).
    key: input.refundId ?? `dispute-${input.disputeId ?? ''}-${input.orderId}`,
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
