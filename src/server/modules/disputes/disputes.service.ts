import type { Db } from '../../db/client';
import {
  PaymentProviderUnavailableError,
  UnknownDisputeError,
  type ProviderDispute,
  type ProviderRefund,
} from '../../adapters/payments/payment-provider';
import { AppError } from '../../platform/errors';
import {
  disputeStatusSchema,
  isDisputeLost,
  isDisputeOpen,
  type AdminDispute,
} from '../../../domain/disputes';
import { formatCents, parseCents } from '../../../domain/money';
import { findDisputeOfProviderRefund, recordMovement, sumDisputeMovements } from '../ledger/ledger.service';
import { settleOrderPayouts } from '../payouts/pay-payout';
import {
  executeRefund,
  refreshRefundsOfPayment,
  settleRefundsOfPayment,
  sumRefundedOfPayment,
  type RefundDeps,
  type RefundRow,
} from '../refunds/refunds.service';
import { takeLostDispute, undoPreventedDispute } from '../refunds/lost-dispute';
import {
  claimDisputeOutcome,
  findPaymentOfDispute,
  insertDisputeIfNew,
  listDisputesWithOrders,
  listOrdersOfDisputedPayment,
  lockDispute,
  lockDisputeById,
  updateDispute,
  type DisputeRow,
} from './disputes.queries';

/** What an event changed, for the log and for what follows the commit. */
interface Applied {
  /** Orders whose payouts may go out (a dispute won or closed) or were reduced (a lost one). */
  settle: string[];
  /** Refunds a lost dispute made anew (what the chargeback did not cover of a cancelled order). */
  refunds: RefundRow[];
  /** The dispute is decided: refunds that waited for it may be made. */
  decided: boolean;
  status: string;
}

/**
 * A charge.dispute.* event (docs/decisions/0018-money-against-stripe.md, Disputes): only the id is
 * taken from the event; the dispute is read again from the provider, since Stripe does not promise
 * the order of events, and its state now is applied to our row in one locked transaction. The
 * ledger's entries are keyed by the dispute, so an event delivered twice (or a later one carrying
 * the same state) writes nothing twice. A dispute on a charge we do not know is logged and
 * acknowledged; a provider that cannot be reached is a 503, so Stripe sends the event again.
 */
export async function applyDisputeEvent(
  deps: RefundDeps,
  providerDisputeId: string,
  eventType: string,
): Promise<void> {
  const { payments: provider } = deps;
  if (!provider.retrieveDispute) {
    deps.log.warn({ providerDisputeId, eventType }, 'dispute event for a provider without disputes; ignored');
    return;
  }
  let dispute: ProviderDispute;
  try {
    dispute = await provider.retrieveDispute(providerDisputeId);
  } catch (error) {
    if (error instanceof PaymentProviderUnavailableError)
      throw new AppError('unavailable', 'The payment provider is not reachable; send the event again later.');
    if (error instanceof UnknownDisputeError) {
      deps.log.warn({ providerDisputeId, eventType }, 'dispute the provider does not know; ignored');
      return;
    }
    throw error;
  }
  const payment = await findPaymentOfDispute(
    deps.db,
    provider.name,
    dispute.chargeId,
    dispute.providerPaymentId,
  );
  if (!payment) {
    deps.log.warn(
      { providerDisputeId, chargeId: dispute.chargeId, eventType },
      'dispute on a charge we do not know; ignored',
    );
    return;
  }
  // A lost dispute is split by what is left of the orders: their refunds as they stand at the provider.
  if (isDisputeLost(disputeStatusSchema.parse(dispute.status))) {
    try {
      await refreshRefundsOfPayment(deps, payment.id);
    } catch (error) {
      if (error instanceof PaymentProviderUnavailableError)
        throw new AppError(
          'unavailable',
          'The payment provider is not reachable; send the event again later.',
        );
      throw error;
    }
  }
  const preventionRefunds = await findPreventionRefunds(deps, dispute, payment);
  const now = deps.now();
  const applied = await deps.db.transaction(async (tx) => {
    await insertDisputeIfNew(tx, {
      paymentId: payment.id,
      provider: provider.name,
      providerDisputeId: dispute.providerDisputeId,
      providerChargeId: dispute.chargeId,
      amount: formatCents(dispute.amount),
      currency: dispute.currency,
      reason: dispute.reason,
      status: dispute.status,
      evidenceDueBy: dispute.evidenceDueBy,
      createdAt: now,
      updatedAt: now,
    });
    const row = await lockDispute(tx, provider.name, dispute.providerDisputeId);
    if (!row) throw new Error(`dispute ${dispute.providerDisputeId} was not stored`);
    return applyDisputeState(tx, row, dispute, payment, now, preventionRefunds);
  });
  deps.log.info(
    { providerDisputeId, paymentId: payment.id, status: applied.status, eventType },
    'dispute event applied',
  );
  // After the commit, as when an order finishes (docs/decisions/0013-money-movement.md): never
  // failing the webhook, the retry job pays anything missed.
  for (const orderId of applied.settle) await settleOrderPayouts(deps, orderId);
  for (const refund of applied.refunds) await executeRefund(deps, refund);
  if (applied.decided) await settleRefundsOfPayment(deps, payment.id);
}

/**
 * Brings the stored dispute to the provider's state: its status, amount, reason and deadline; the
 * withdrawal and the reinstatement in the ledger, each once; the close; a lost dispute's take-back.
 */
async function applyDisputeState(
  tx: Db,
  row: DisputeRow,
  dispute: ProviderDispute,
  payment: { id: string; buyerId: string; currency: string },
  now: Date,
  preventionRefunds: PreventionRefund[],
): Promise<Applied> {
  const patch: Parameters<typeof updateDispute>[2] = {};
  const amount = formatCents(dispute.amount);
  if (row.status !== dispute.status) patch.status = dispute.status;
  if (parseCents(row.amount) !== dispute.amount) patch.amount = amount;
  if (row.reason !== dispute.reason) patch.reason = dispute.reason;
  if ((row.evidenceDueBy?.getTime() ?? null) !== (dispute.evidenceDueBy?.getTime() ?? null))
    patch.evidenceDueBy = dispute.evidenceDueBy;
  const movement = { paymentId: payment.id, userId: payment.buyerId, currency: payment.currency, at: now };
  if (dispute.withdrawal && !row.fundsWithdrawnAt) {
    const { amount: withdrawn, fee, balanceTransactionId } = dispute.withdrawal;
    patch.fundsWithdrawnAt = now;
    patch.fee = formatCents(fee);
    await recordMovement(tx, {
      ...movement,
      kind: 'dispute',
      key: row.id,
      amount: withdrawn,
      disputeId: row.id,
      providerReference: balanceTransactionId,
    });
    await recordMovement(tx, {
      ...movement,
      kind: 'dispute_fee',
      key: row.id,
      amount: fee,
      disputeId: row.id,
      providerReference: balanceTransactionId,
    });
  }
  // A fee taken on its own (Stripe's dispute countered fee, when evidence is submitted) is a cost
  // like the dispute fee: one entry per balance transaction, added to the dispute's fee.
  let feeTaken = parseCents(patch.fee ?? row.fee);
  for (const other of dispute.otherFees) {
    const written = await recordMovement(tx, {
      ...movement,
      kind: 'dispute_fee',
      key: `${row.id}:${other.balanceTransactionId}`,
      amount: other.fee,
      disputeId: row.id,
      providerReference: other.balanceTransactionId,
    });
    if (written) {
      feeTaken += other.fee;
      patch.fee = formatCents(feeTaken);
    }
  }
  if (dispute.reinstatement && !row.fundsReinstatedAt) {
    const { amount: back, fee, balanceTransactionId } = dispute.reinstatement;
    patch.fundsReinstatedAt = now;
    await recordMovement(tx, {
      ...movement,
      kind: 'dispute_reinstated',
      key: row.id,
      amount: back,
      disputeId: row.id,
      providerReference: balanceTransactionId,
    });
    // Only what Stripe gives back: since June 2025 the dispute fee stays, and only the counter fee
    // of a won dispute is returned (a negative fee on the reinstatement); 0 writes nothing.
    await recordMovement(tx, {
      ...movement,
      kind: 'dispute_fee_reinstated',
      key: row.id,
      amount: fee,
      disputeId: row.id,
      providerReference: balanceTransactionId,
    });
  }
  const status = disputeStatusSchema.parse(dispute.status);
  const settle: string[] = [];
  const refunds: RefundRow[] = [];
  if (!isDisputeOpen(status) && !row.closedAt) {
    patch.closedAt = now;
    // Won or closed in the platform's favour: the payouts it held may go out now.
    if (!isDisputeLost(status))
      settle.push(...(await listOrdersOfDisputedPayment(tx, row.paymentId)).map((order) => order.id));
  }
  if (Object.keys(patch).length > 0) await updateDispute(tx, row.id, { ...patch, updatedAt: now });
  // A prevented dispute withdrew nothing: the provider refunded the cardholder instead. That refund is
  // the money the dispute took (docs/decisions/0022-money-in-combinations.md, A lost dispute).
  let lostAmount = amount;
  if (status === 'prevented') {
    let refunded = 0;
    for (const refund of preventionRefunds) {
      refunded += refund.amount;
      await recordMovement(tx, {
        ...movement,
        kind: 'dispute',
        key: `${row.id}:${refund.providerRefundId}`,
        amount: refund.amount,
        disputeId: row.id,
        providerReference: refund.providerRefundId,
      });
    }
    if (!row.fundsWithdrawnAt && refunded > 0) patch.fundsWithdrawnAt = now;
    lostAmount = formatCents(refunded);
  }
  if (isDisputeLost(status) && !row.outcomeHandledAt) {
    // Once: the lost amount is taken from the orders by the refunds module (docs/ARCHITECTURE.md,
    // Money flows one way).
    if (await claimDisputeOutcome(tx, row.id, now)) {
      const outcome = await takeLostDispute(tx, { ...row, ...patch, amount: lostAmount }, now);
      settle.push(...outcome.settle);
      refunds.push(...outcome.refunds);
    }
  }
  return { settle, refunds, decided: !isDisputeOpen(status), status };
}

/** A refund the provider made on its own for a prevented dispute, with its amount in cents. */
interface PreventionRefund {
  providerRefundId: string;
  amount: number;
}

/**
 * The refunds the provider made to resolve a prevented dispute: those of the payment that are not
 * ours (no refund id of ours in their metadata) and did not fail. None yet is a 503: the event is
 * sent again once Stripe has made it.
 */
async function findPreventionRefunds(
  deps: RefundDeps,
  dispute: ProviderDispute,
  payment: { id: string; providerPaymentId: string; amount: string },
): Promise<PreventionRefund[]> {
  if (dispute.status !== 'prevented' || !deps.payments.listRefunds) return [];
  let refunds;
  try {
    refunds = await deps.payments.listRefunds(payment.providerPaymentId);
  } catch (error) {
    if (error instanceof PaymentProviderUnavailableError)
      throw new AppError('unavailable', 'The payment provider is not reachable; send the event again later.');
    throw error;
  }
  // Not ours; one that failed gave the cardholder nothing (its money came back) and counts for nothing.
  const theirs = refunds.filter((refund) => refund.refundId === null);
  const found = theirs.flatMap((refund) =>
    refund.status !== 'failed' && refund.status !== 'canceled'
      ? [{ providerRefundId: refund.providerRefundId, amount: refund.amount ?? 0 }]
      : [],
  );
  if (theirs.length > 0) return found;
  // Nothing left of the charge to refund (our refunds gave it all back): the dispute took nothing.
  const left = parseCents(payment.amount) - (await sumRefundedOfPayment(deps.db, payment.id));
  if (found.length === 0 && left > 0)
    throw new AppError(
      'unavailable',
      "The prevented dispute's refund is not at the provider yet; send the event again later.",
    );
  return found;
}

/**
 * A refund event about a refund that is not ours (the payments' webhook asks after the refunds module
 * did not know it): the refund Stripe made to resolve a prevented dispute, failed after the dispute was
 * handled (the cardholder's card was closed: Stripe returns the money to the platform's balance;
 * Refunds, "Failed refunds"). The dispute's taking is undone as a failed refund of ours is
 * (docs/decisions/0022-money-in-combinations.md, A prevented dispute whose refund fails). Answers
 * whether the refund was a prevented dispute's; any other (a Dashboard refund) is the caller's to log.
 * A refund that failed before the dispute was handled is never counted by it (`findPreventionRefunds`),
 * so there is nothing to undo then.
 */
export async function applyPreventionRefundEvent(deps: RefundDeps, event: ProviderRefund): Promise<boolean> {
  const taken = await findDisputeOfProviderRefund(deps.db, event.providerRefundId);
  if (!taken) return false;
  if (event.status !== 'failed' && event.status !== 'canceled') {
    deps.log.info(
      { providerRefundId: event.providerRefundId, disputeId: taken.disputeId, status: event.status },
      "prevented dispute's refund state",
    );
    return true;
  }
  const now = deps.now();
  const settle = await deps.db.transaction(async (tx) => {
    const dispute = await lockDisputeById(tx, taken.disputeId);
    if (!dispute) return [];
    // One refund resolves a prevented dispute: its taking is undone whole. A dispute whose money left
    // through several refunds of others is not split back by one of them: named for a person instead.
    const took =
      (await sumDisputeMovements(tx, dispute.id, 'dispute')) -
      (await sumDisputeMovements(tx, dispute.id, 'dispute_reinstated'));
    // Undone already: the event came again.
    if (took === 0) return [];
    if (took !== taken.amount) {
      deps.log.error(
        { providerRefundId: event.providerRefundId, disputeId: dispute.id, took, failed: taken.amount },
        "one of a prevented dispute's refunds failed; its taking is not undone",
      );
      return [];
    }
    return undoPreventedDispute(
      tx,
      {
        disputeId: dispute.id,
        paymentId: dispute.paymentId,
        currency: dispute.currency,
        providerRefundId: event.providerRefundId,
        amount: taken.amount,
      },
      now,
    );
  });
  deps.log.error(
    { providerRefundId: event.providerRefundId, disputeId: taken.disputeId, status: event.status },
    "prevented dispute's refund failed at the provider; the dispute's taking is undone",
  );
  for (const orderId of settle) await settleOrderPayouts(deps, orderId);
  return true;
}

/** The admin's dashboard link of a dispute: Stripe's, in test mode when the keys are test keys. */
function dashboardUrlOf(row: DisputeRow, stripeTestMode: boolean): string | null {
  if (row.provider !== 'stripe') return null;
  return `https://dashboard.stripe.com/${stripeTestMode ? 'test/' : ''}disputes/${encodeURIComponent(row.providerDisputeId)}`;
}

/** GET /api/admin/disputes: open disputes first (soonest evidence deadline first), then closed ones. */
export async function listDisputesForAdmin(
  db: Db,
  options: { stripeTestMode: boolean },
): Promise<AdminDispute[]> {
  const rows = await listDisputesWithOrders(db, 500);
  return rows.map(({ dispute, orderIds, orderNumbers }) => {
    const status = disputeStatusSchema.parse(dispute.status);
    return {
      id: dispute.id,
      paymentId: dispute.paymentId,
      orderIds,
      orderNumbers,
      amount: formatCents(parseCents(dispute.amount)),
      fee: formatCents(parseCents(dispute.fee)),
      currency: dispute.currency,
      reason: dispute.reason,
      status,
      isOpen: isDisputeOpen(status),
      evidenceDueBy: dispute.evidenceDueBy?.toISOString() ?? null,
      fundsWithdrawnAt: dispute.fundsWithdrawnAt?.toISOString() ?? null,
      fundsReinstatedAt: dispute.fundsReinstatedAt?.toISOString() ?? null,
      closedAt: dispute.closedAt?.toISOString() ?? null,
      createdAt: dispute.createdAt.toISOString(),
      provider: dispute.provider,
      providerDisputeId: dispute.providerDisputeId,
      dashboardUrl: dashboardUrlOf(dispute, options.stripeTestMode),
    };
  });
}
