import { PayoutRefusedError } from '../../adapters/payouts/payout-errors';
import { recordMovement } from '../ledger/ledger.service';
import { hasOpenDispute } from '../disputes/dispute-holds';
import { parseCents } from '../../../domain/money';
import {
  describeError,
  PAYOUT_LEASE_MS,
  PAYOUT_REFUSALS_BEFORE_FINAL,
  payoutBackoffMs,
  PROVIDER_KEY_WINDOW_MS,
  reversalKeyOf,
  transferKeyOf,
  type PayoutDeps,
} from './payout-deps';
import {
  cancelUnsentPayout,
  claimPayout,
  claimReversal,
  endPayoutAttempt,
  endReversalAttempt,
  findChargeOfOrder,
  findReadyAccount,
  listPayoutsOfOrder,
  markPayoutPaid,
  markPayoutReversed,
  refusePayoutAttempt,
  type PayoutRow,
} from './payouts.queries';

export type PayoutOutcome =
  'paid' | 'owed' | 'failed' | 'refused' | 'retry' | 'cancelled' | 'skipped' | 'held';

/**
 * Transfers one pending payout to its party's account (docs/decisions/0013-money-movement.md,
 * Transfers and the ledger). The payout is claimed first (one worker at a time); the transfer names
 * the buyer's charge and carries the key of its order and party, so asking twice pays once. When an
 * earlier attempt may have reached the provider longer ago than its key window, the transfer is
 * looked for before paying again. The ledger gets the transfer once it is made.
 */
export async function payPayout(deps: PayoutDeps, payout: PayoutRow): Promise<PayoutOutcome> {
  // A dispute on the order's payment holds it pending, unclaimed; the retry job pays it once the
  // dispute is won or closed (docs/decisions/0018-money-against-stripe.md, Disputes).
  if (await hasOpenDispute(deps.db, payout.orderId)) return 'held';
  const now = deps.now();
  const claimed = await claimPayout(deps.db, payout, now, new Date(now.getTime() + PAYOUT_LEASE_MS));
  if (!claimed) return 'skipped';
  const charge = await findChargeOfOrder(deps.db, payout.orderId);
  const transferGroup =
    charge?.transferGroup ?? (charge ? `payment_${charge.paymentId}` : `order_${payout.orderId}`);
  const idempotencyKey = transferKeyOf(payout);
  try {
    const mayHaveReachedProvider = payout.attempts > 0;
    // Counted from the first attempt: Stripe forgets a key 24 hours after its first use, however
    // many retries came since (docs/decisions/0018-money-against-stripe.md, Transfers exactly once).
    const firstAttemptAt = payout.firstAttemptAt ?? payout.lastAttemptAt;
    const keyForgotten =
      firstAttemptAt !== null && now.getTime() - firstAttemptAt.getTime() >= PROVIDER_KEY_WINDOW_MS;
    if (mayHaveReachedProvider && (keyForgotten || payout.reversalRequestedAt !== null)) {
      const found = await deps.payouts.findTransfer({ transferGroup, idempotencyKey });
      if (found) return await finishPaid(deps, claimed, found.providerTransferId);
    }
    // Refunded before it went out: nothing to pay and nothing to take back.
    if (payout.reversalRequestedAt !== null) {
      await cancelUnsentPayout(deps.db, payout.id, now);
      return 'cancelled';
    }
    const accountId = await findReadyAccount(deps.db, payout.userId);
    if (!accountId) {
      await endPayoutAttempt(deps.db, payout.id, { status: 'owed', error: null }, deps.now());
      return 'owed';
    }
    const { providerTransferId } = await deps.payouts.transfer({
      amount: parseCents(payout.amount),
      currency: payout.currency,
      destinationAccountId: accountId,
      sourceChargeId: charge?.chargeId ?? null,
      transferGroup,
      idempotencyKey,
      metadata: { orderId: payout.orderId, party: payout.kind, key: idempotencyKey },
    });
    return await finishPaid(deps, claimed, providerTransferId);
  } catch (error) {
    if (error instanceof PayoutRefusedError) {
      const row = await refusePayoutAttempt(
        deps.db,
        payout.id,
        {
          error: describeError(error),
          backoffMs: payoutBackoffMs,
          finalAfter: PAYOUT_REFUSALS_BEFORE_FINAL,
        },
        deps.now(),
      );
      deps.log.error(
        { err: error, payoutId: payout.id, orderId: payout.orderId, refusals: row?.refusals },
        row?.status === 'refused'
          ? 'payout refused by the provider again; it waits for an admin'
          : 'payout refused by the provider; will try again later',
      );
      return row?.status === 'refused' ? 'refused' : 'failed';
    }
    await endPayoutAttempt(
      deps.db,
      payout.id,
      { status: 'pending', error: describeError(error) },
      deps.now(),
    );
    deps.log.error(
      { err: error, payoutId: payout.id, orderId: payout.orderId },
      'payout not made; will retry',
    );
    return 'retry';
  }
}

/** Marks the payout paid and writes its transfer to the ledger, in one transaction; then a reversal asked for meanwhile follows. */
async function finishPaid(
  deps: PayoutDeps,
  payout: PayoutRow,
  providerTransferId: string,
): Promise<PayoutOutcome> {
  const now = deps.now();
  const paid = await deps.db.transaction(async (tx) => {
    const row = await markPayoutPaid(tx, payout.id, providerTransferId, now);
    if (!row) return undefined;
    const charge = await findChargeOfOrder(tx, row.orderId);
    await recordMovement(tx, {
      kind: 'transfer',
      key: row.id,
      amount: parseCents(row.amount),
      currency: row.currency,
      paymentId: charge?.paymentId ?? null,
      orderId: row.orderId,
      userId: row.userId,
      payoutId: row.id,
      providerReference: providerTransferId,
      at: now,
    });
    return row;
  });
  if (!paid) return 'skipped';
  deps.log.info({ payoutId: paid.id, orderId: paid.orderId, providerTransferId }, 'payout transferred');
  if (paid.reversalRequestedAt !== null) await reversePayout(deps, paid);
  return 'paid';
}

/**
 * Takes a paid payout back after its order was refunded: a reversal of the whole transfer, keyed by
 * order and party, then the reversal in the ledger. A provider that cannot be reached leaves it for
 * the retry job.
 */
export async function reversePayout(deps: PayoutDeps, payout: PayoutRow): Promise<boolean> {
  const now = deps.now();
  const claimed = await claimReversal(deps.db, payout, now, new Date(now.getTime() + PAYOUT_LEASE_MS));
  if (!claimed?.providerTransferId) return false;
  try {
    const { providerReversalId } = await deps.payouts.reverseTransfer({
      providerTransferId: claimed.providerTransferId,
      amount: parseCents(claimed.amount),
      idempotencyKey: reversalKeyOf(claimed),
      metadata: { orderId: claimed.orderId, party: claimed.kind, key: reversalKeyOf(claimed) },
    });
    const at = deps.now();
    await deps.db.transaction(async (tx) => {
      const row = await markPayoutReversed(tx, claimed.id, providerReversalId, at);
      if (!row) return;
      const charge = await findChargeOfOrder(tx, row.orderId);
      await recordMovement(tx, {
        kind: 'reversal',
        key: row.id,
        amount: parseCents(row.amount),
        currency: row.currency,
        paymentId: charge?.paymentId ?? null,
        orderId: row.orderId,
        userId: row.userId,
        payoutId: row.id,
        providerReference: providerReversalId,
        at,
      });
    });
    deps.log.info({ payoutId: claimed.id, orderId: claimed.orderId, providerReversalId }, 'payout reversed');
    return true;
  } catch (error) {
    await endReversalAttempt(deps.db, claimed.id, describeError(error), deps.now());
    deps.log.error(
      { err: error, payoutId: claimed.id, orderId: claimed.orderId },
      'reversal not made; will retry',
    );
    return false;
  }
}

/**
 * After the transaction that finished or refunded an order: pays its pending payouts and takes back
 * the paid ones a refund asked for. Errors are recorded on the payouts, never thrown at the caller.
 */
export async function settleOrderPayouts(deps: PayoutDeps, orderId: string): Promise<void> {
  for (const payout of await listPayoutsOfOrder(deps.db, orderId)) {
    try {
      if (payout.status === 'pending') await payPayout(deps, payout);
      else if (payout.status === 'paid' && payout.reversalRequestedAt !== null)
        await reversePayout(deps, payout);
    } catch (error) {
      deps.log.error(
        { err: error, payoutId: payout.id, orderId },
        'payout step failed; the retry job takes it',
      );
    }
  }
}
