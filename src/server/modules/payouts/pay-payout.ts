import { PayoutRefusedError } from '../../adapters/payouts/payout-errors';
import { recordMovement } from '../ledger/ledger.service';
import { parseCents } from '../../../domain/money';
import { queuePayoutMail } from './payout-mail';
import {
  describeError,
  PAYOUT_LEASE_MS,
  PAYOUT_REFUSALS_BEFORE_FINAL,
  payoutBackoffMs,
  restoreKeyOf,
  PROVIDER_KEY_WINDOW_MS,
  reversalKeyOf,
  transferKeyOf,
  type PayoutDeps,
} from './payout-deps';
import {
  findHoldingDispute,
  cancelUnsentPayout,
  claimPayout,
  claimPayoutReversal,
  endRestoringShare,
  refuseRestoringShare,
  endPayoutAttempt,
  endPayoutReversal,
  endReversalAttempt,
  findChargeOfOrder,
  findPayout,
  findReadyAccount,
  listPayoutsOfOrder,
  listPendingReversalsOfPayout,
  listTransfersWithRoom,
  setReversalTransfer,
  markPayoutPaid,
  markPayoutReversedWhenWhole,
  refusePayoutAttempt,
  type PayoutReversalRow,
  type PayoutRow,
} from './payouts.queries';

export type PayoutOutcome =
  'paid' | 'owed' | 'failed' | 'refused' | 'retry' | 'cancelled' | 'held' | 'skipped';

/** The order's charge and the transfer group its transfers go in (the charge's, or one named after it). */
async function transferGroupOf(deps: PayoutDeps, orderId: string) {
  const charge = await findChargeOfOrder(deps.db, orderId);
  const transferGroup =
    charge?.transferGroup ?? (charge ? `payment_${charge.paymentId}` : `order_${orderId}`);
  return { charge, transferGroup };
}

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
  if (await findHoldingDispute(deps.db, payout.orderId)) return 'held';
  const now = deps.now();
  // Within the return window nothing goes out (docs/decisions/0018-money-against-stripe.md, Refunds).
  if (payout.heldUntil !== null && payout.heldUntil > now) return 'held';
  const claimed = await claimPayout(deps.db, payout, now, new Date(now.getTime() + PAYOUT_LEASE_MS));
  if (!claimed) return 'skipped';
  const { charge, transferGroup } = await transferGroupOf(deps, payout.orderId);
  const idempotencyKey = transferKeyOf(claimed);
  try {
    // Shares a refund took back while this payout may have been on its way (reversed once it is paid).
    const takenBack = (await listPendingReversalsOfPayout(deps.db, payout.id)).reduce(
      (sum, row) => sum + parseCents(row.amount),
      0,
    );
    // Only an attempt whose answer was lost may have made a transfer under this key.
    const mayHaveReachedProvider = claimed.isUncertain;
    // Counted from the first attempt: Stripe forgets a key 24 hours after its first use, however
    // many retries came since (docs/decisions/0018-money-against-stripe.md, Transfers exactly once).
    const firstAttemptAt = claimed.firstAttemptAt;
    const keyForgotten =
      firstAttemptAt !== null && now.getTime() - firstAttemptAt.getTime() >= PROVIDER_KEY_WINDOW_MS;
    if (mayHaveReachedProvider && (keyForgotten || takenBack > 0)) {
      const found = await deps.payouts.findTransfer({ transferGroup, idempotencyKey });
      if (found) return await finishPaid(deps, claimed, found.providerTransferId);
    }
    // Refunded whole before it went out: nothing to pay and nothing to take back.
    if (takenBack > 0 && takenBack >= parseCents(claimed.amount)) {
      await cancelUnsentPayout(deps.db, payout.id, now);
      return 'cancelled';
    }
    const accountId = await findReadyAccount(deps.db, payout.userId);
    if (!accountId) {
      await endPayoutAttempt(deps.db, payout.id, { status: 'owed', error: null }, deps.now());
      return 'owed';
    }
    const { providerTransferId } = await deps.payouts.transfer({
      amount: parseCents(claimed.amount),
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
      if (row?.status === 'refused') await queuePayoutMail(deps.db, deps.siteUrl, row, 'failed');
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
      // What was sent: the claimed amount (a refund that failed meanwhile may have grown the row).
      amount: parseCents(payout.amount),
      currency: row.currency,
      paymentId: charge?.paymentId ?? null,
      orderId: row.orderId,
      userId: row.userId,
      payoutId: row.id,
      providerReference: providerTransferId,
      at: now,
    });
    await queuePayoutMail(tx, deps.siteUrl, row, 'sent');
    return row;
  });
  if (!paid) return 'skipped';
  deps.log.info({ payoutId: paid.id, orderId: paid.orderId, providerTransferId }, 'payout transferred');
  await reversePayout(deps, paid);
  return 'paid';
}

export type ReversalOutcome = 'reversed' | 'unrecovered' | 'retry' | 'skipped';

/**
 * Takes back one share of a paid payout (docs/decisions/0018-money-against-stripe.md, Refunds): a
 * reversal of that amount of the transfer, keyed by the reversal row (`reversal-<id>`); past the key
 * window counted from its first attempt the provider is asked for it by metadata first. The reversal
 * goes to the ledger. A refusal (the connected account no longer holds the money) is final: the
 * share is `unrecovered` and a `reversal_loss` entry says the platform bears it; it is never tried
 * again. A provider that cannot be reached leaves it pending for the retry job.
 */
export async function reverseShare(
  deps: PayoutDeps,
  payout: PayoutRow,
  reversal: PayoutReversalRow,
): Promise<ReversalOutcome> {
  const ownTransferId = payout.providerTransferId;
  if (payout.status !== 'paid' || !ownTransferId) return 'skipped';
  const now = deps.now();
  const claimed = await claimPayoutReversal(
    deps.db,
    reversal,
    now,
    new Date(now.getTime() + PAYOUT_LEASE_MS),
  );
  if (!claimed) return 'skipped';
  const key = reversalKeyOf(claimed);
  // Which transfer it takes from: the payout's own, or one that gave a share back after a failed
  // refund once the first has nothing left to reverse (docs/decisions/0022-money-in-combinations.md).
  const transferId =
    claimed.providerTransferId ??
    (await chooseTransferToReverse(deps, { ...payout, providerTransferId: ownTransferId }, claimed));
  const lookFirst =
    claimed.attempts > 1 &&
    claimed.firstAttemptAt !== null &&
    now.getTime() - claimed.firstAttemptAt.getTime() >= PROVIDER_KEY_WINDOW_MS;
  const record = async (
    outcome: { status: 'reversed'; providerReversalId: string } | { status: 'unrecovered'; error: string },
  ) => {
    const at = deps.now();
    await deps.db.transaction(async (tx) => {
      const row = await endPayoutReversal(tx, claimed.id, outcome, at);
      if (!row) return;
      const charge = await findChargeOfOrder(tx, payout.orderId);
      await recordMovement(tx, {
        kind: outcome.status === 'reversed' ? 'reversal' : 'reversal_loss',
        key: row.id,
        amount: parseCents(row.amount),
        currency: payout.currency,
        paymentId: charge?.paymentId ?? null,
        orderId: payout.orderId,
        userId: payout.userId,
        refundId: row.refundId,
        payoutId: payout.id,
        disputeId: row.disputeId,
        providerReference: outcome.status === 'reversed' ? outcome.providerReversalId : null,
        at,
      });
      if (outcome.status === 'reversed')
        await markPayoutReversedWhenWhole(tx, payout.id, outcome.providerReversalId, at);
    });
  };
  try {
    const { providerReversalId } = await deps.payouts.reverseTransfer({
      providerTransferId: transferId,
      amount: parseCents(claimed.amount),
      idempotencyKey: key,
      metadata: { orderId: payout.orderId, party: payout.kind, key },
      lookFirst,
    });
    await record({ status: 'reversed', providerReversalId });
    deps.log.info(
      { payoutId: payout.id, reversalId: claimed.id, orderId: payout.orderId, providerReversalId },
      'payout share reversed',
    );
    return 'reversed';
  } catch (error) {
    if (error instanceof PayoutRefusedError) {
      await record({ status: 'unrecovered', error: describeError(error) });
      deps.log.error(
        { err: error, payoutId: payout.id, reversalId: claimed.id, orderId: payout.orderId },
        'reversal refused by the provider: the platform bears the loss',
      );
      return 'unrecovered';
    }
    await endReversalAttempt(deps.db, claimed.id, describeError(error), deps.now());
    deps.log.error(
      { err: error, payoutId: payout.id, reversalId: claimed.id, orderId: payout.orderId },
      'reversal not made; will retry',
    );
    return 'retry';
  }
}

/** Takes back every pending share of a paid payout. Answers how many were reversed. */
export async function reversePayout(deps: PayoutDeps, payout: PayoutRow): Promise<number> {
  let reversed = 0;
  for (const reversal of await listPendingReversalsOfPayout(deps.db, payout.id))
    if ((await reverseShare(deps, payout, reversal)) === 'reversed') reversed += 1;
  return reversed;
}

/** The retry job's reversal: the payout is read again, as it stands now. */
export async function retryReversal(deps: PayoutDeps, reversal: PayoutReversalRow): Promise<ReversalOutcome> {
  const payout = await findPayout(deps.db, reversal.payoutId);
  return payout ? reverseShare(deps, payout, reversal) : 'skipped';
}

/**
 * After the transaction that finished or refunded an order: takes back the shares of paid payouts a
 * refund asked for (first, so a refund reverses before the buyer is paid back) and pays its pending
 * payouts. Errors are recorded on the payouts, never thrown at the caller.
 */
export async function settleOrderPayouts(deps: PayoutDeps, orderId: string): Promise<void> {
  for (const payout of await listPayoutsOfOrder(deps.db, orderId)) {
    try {
      if (payout.status === 'paid') await reversePayout(deps, payout);
      else if (payout.status === 'pending') await payPayout(deps, payout);
    } catch (error) {
      deps.log.error(
        { err: error, payoutId: payout.id, orderId },
        'payout step failed; the retry job takes it',
      );
    }
  }
}

/**
 * Transfers back one share its refund's failure returned to a seller or driver
 * (docs/decisions/0022-money-in-combinations.md, A refund that fails): a transfer of the share to
 * the payee's account, keyed by the take-back (`restore-<id>`; past the key window it is looked for
 * first), written to the ledger as `restore_transfer`. An account not ready waits; a refusal is tried
 * again after the payouts' backoff under a new key, and the fifth in a row is final until an admin
 * sends it again (docs/decisions/0022-money-in-combinations.md, Transfers and their keys).
 */
export async function restoreShare(
  deps: PayoutDeps,
  payout: PayoutRow,
  share: PayoutReversalRow,
): Promise<'restored' | 'waiting' | 'skipped'> {
  const now = deps.now();
  const accountId = await findReadyAccount(deps.db, payout.userId);
  if (!accountId) return 'waiting';
  const claimed = await claimPayoutReversal(
    deps.db,
    share,
    now,
    new Date(now.getTime() + PAYOUT_LEASE_MS),
    'restoring',
  );
  if (!claimed) return 'skipped';
  const { charge, transferGroup } = await transferGroupOf(deps, payout.orderId);
  const idempotencyKey = restoreKeyOf(claimed);
  try {
    const keyForgotten =
      claimed.attempts > 1 &&
      claimed.firstAttemptAt !== null &&
      now.getTime() - claimed.firstAttemptAt.getTime() >= PROVIDER_KEY_WINDOW_MS;
    const found = keyForgotten ? await deps.payouts.findTransfer({ transferGroup, idempotencyKey }) : null;
    const { providerTransferId } =
      found ??
      (await deps.payouts.transfer({
        amount: parseCents(claimed.amount),
        currency: payout.currency,
        destinationAccountId: accountId,
        // From the platform's balance: the failed refund's money came back to it, and the charge's
        // funds were already transferred once (Stripe caps the transfers of a source transaction).
        sourceChargeId: null,
        transferGroup,
        idempotencyKey,
        metadata: { orderId: payout.orderId, party: payout.kind, key: idempotencyKey },
      }));
    await deps.db.transaction(async (tx) => {
      const row = await endRestoringShare(
        tx,
        claimed.id,
        { restored: true, transferId: providerTransferId },
        deps.now(),
      );
      if (!row) return;
      await recordMovement(tx, {
        kind: 'restore_transfer',
        key: row.id,
        amount: parseCents(row.amount),
        currency: payout.currency,
        paymentId: charge?.paymentId ?? null,
        orderId: payout.orderId,
        userId: payout.userId,
        refundId: row.refundId,
        disputeId: row.disputeId,
        payoutId: payout.id,
        providerReference: providerTransferId,
        at: deps.now(),
      });
    });
    deps.log.info({ payoutId: payout.id, shareId: claimed.id, providerTransferId }, 'share transferred back');
    return 'restored';
  } catch (error) {
    if (error instanceof PayoutRefusedError) {
      const refusals = claimed.refusals + 1;
      const final = refusals >= PAYOUT_REFUSALS_BEFORE_FINAL;
      await refuseRestoringShare(
        deps.db,
        claimed.id,
        {
          error: describeError(error),
          final,
          retryAt: new Date(deps.now().getTime() + payoutBackoffMs(refusals)),
        },
        deps.now(),
      );
      deps.log.error(
        { err: error, payoutId: payout.id, shareId: claimed.id, refusals },
        final
          ? 'share refused for good; an admin sends it again'
          : 'share not transferred back; tried again with a new key',
      );
      return 'skipped';
    }
    await endRestoringShare(
      deps.db,
      claimed.id,
      { restored: false, error: describeError(error), retryAt: null },
      deps.now(),
    );
    deps.log.error(
      { err: error, payoutId: payout.id, shareId: claimed.id },
      'share not transferred back; will retry',
    );
    return 'skipped';
  }
}

/** The first of the payout's transfers with room for the whole share (else the one with most room), kept on the row. */
async function chooseTransferToReverse(
  deps: PayoutDeps,
  payout: PayoutRow & { providerTransferId: string },
  reversal: PayoutReversalRow,
): Promise<string> {
  const transfers = await listTransfersWithRoom(deps.db, payout, reversal.id);
  const share = parseCents(reversal.amount);
  const chosen =
    transfers.find((transfer) => transfer.room >= share) ?? [...transfers].sort((a, b) => b.room - a.room)[0];
  const transferId = chosen?.transferId ?? payout.providerTransferId;
  await setReversalTransfer(deps.db, reversal.id, transferId);
  return transferId;
}
