import type { Db } from '../../db/client';
import { formatCents, parseCents, type Cents } from '../../../domain/money';
import {
  findDisputeEntryOfRefund,
  findPaymentOfLedger,
  insertLedgerEntry,
  sumOrderLedger,
  sumDisputeLedger,
  sumDisputeOrderLedger,
  sumPlatformBalance,
  sumRefundLedger,
} from './ledger.queries';

/**
 * The kinds of movement (docs/decisions/0013-money-movement.md, Transfers and the ledger): the
 * buyer's charge and its refunds, a transfer to a seller or driver and its reversal, and the
 * platform's fee earned when an order is finished and given back when a finished order is refunded.
 */
export type LedgerKind =
  | 'charge'
  | 'refund'
  | 'transfer'
  | 'reversal'
  | 'platform_fee'
  | 'platform_fee_refund'
  /** The provider's processing fee on a charge (kept by Stripe when the charge is refunded). */
  | 'provider_fee'
  /** A chargeback: the disputed amount and the dispute fee withdrawn, and what a won dispute gives back. */
  | 'dispute'
  | 'dispute_fee'
  | 'dispute_reinstated'
  | 'dispute_fee_reinstated'
  /** A transfer that could not be taken back: the platform bears it, by name (docs/decisions/0018-money-against-stripe.md). */
  | 'reversal_loss'
  /** Undoing a refund that failed (docs/decisions/0022-money-in-combinations.md): its money back, the fee's part earned again, a loss cancelled, a reversed share transferred back. */
  | 'refund_failure'
  | 'platform_fee_restored'
  | 'loss_cancelled'
  | 'restore_transfer'
  /** Money a lost dispute took that had already been refunded: the platform bears it. */
  | 'dispute_loss';

export interface Movement {
  kind: LedgerKind;
  /** Names the movement once: `charge:<paymentId>`, `refund:<refundId>`, `transfer:<payoutId>`... */
  key: string;
  amount: Cents;
  currency: string;
  paymentId?: string | null;
  orderId?: string | null;
  userId?: string | null;
  refundId?: string | null;
  payoutId?: string | null;
  disputeId?: string | null;
  providerReference?: string | null;
  at: Date;
}

/**
 * Writes a movement to the append-only ledger, once: a retry of the same movement finds its key
 * taken and writes nothing. A movement of nothing is not written.
 */
export async function recordMovement(db: Db, movement: Movement): Promise<boolean> {
  if (!Number.isSafeInteger(movement.amount) || movement.amount < 0)
    throw new Error(`A ledger movement is a whole, non-negative number of cents (${movement.amount})`);
  if (movement.amount === 0) return false;
  return insertLedgerEntry(db, {
    entryKey: `${movement.kind}:${movement.key}`,
    kind: movement.kind,
    amount: formatCents(movement.amount),
    currency: movement.currency,
    paymentId: movement.paymentId ?? null,
    orderId: movement.orderId ?? null,
    userId: movement.userId ?? null,
    refundId: movement.refundId ?? null,
    payoutId: movement.payoutId ?? null,
    disputeId: movement.disputeId ?? null,
    providerReference: movement.providerReference ?? null,
    createdAt: movement.at,
  });
}

/**
 * The buyer's charge, when a charged payment is processed (inside that transaction). It names the
 * provider's charge (`ch_…`, the source of its balance transaction) when known, else the payment
 * intent; reconcile against the provider reads the payment's charge for either
 * (docs/decisions/0018-money-against-stripe.md).
 */
export async function recordCharge(
  db: Db,
  payment: {
    id: string;
    buyerId: string;
    amount: string;
    currency: string;
    providerPaymentId: string;
    providerChargeId?: string | null;
  },
  at: Date,
): Promise<void> {
  await recordMovement(db, {
    kind: 'charge',
    key: payment.id,
    amount: parseCents(payment.amount),
    currency: payment.currency,
    paymentId: payment.id,
    userId: payment.buyerId,
    providerReference: payment.providerChargeId ?? payment.providerPaymentId,
    at,
  });
}

/**
 * The provider's processing fee of a payment's charge (Stripe keeps it when the charge is refunded,
 * so it is never given back): keyed by the payment, naming the charge. A fee of 0 writes nothing.
 */
export async function recordProviderFee(
  db: Db,
  payment: { id: string; buyerId: string; currency: string },
  fee: { amount: Cents; chargeId: string },
  at: Date,
): Promise<void> {
  await recordMovement(db, {
    kind: 'provider_fee',
    key: payment.id,
    amount: fee.amount,
    currency: payment.currency,
    paymentId: payment.id,
    userId: payment.buyerId,
    providerReference: fee.chargeId,
    at,
  });
}

/** A refund the provider reports succeeded: the money went back to the buyer. */
export async function recordRefundMade(
  db: Db,
  refund: { id: string; paymentId: string; orderId: string | null; amount: string },
  providerRefundId: string,
  at: Date,
): Promise<void> {
  const payment = await findPaymentOfLedger(db, refund.paymentId);
  await recordMovement(db, {
    kind: 'refund',
    key: refund.id,
    amount: parseCents(refund.amount),
    currency: payment?.currency ?? 'usd',
    paymentId: refund.paymentId,
    orderId: refund.orderId,
    userId: payment?.buyerId ?? null,
    refundId: refund.id,
    providerReference: providerRefundId,
    at,
  });
}

/**
 * What the platform keeps, in cents (docs/decisions/0018-money-against-stripe.md, Platform balance):
 * fees earned less fees given back, less the provider's fees, disputes and their fees and reversal
 * losses, plus what won disputes reinstated.
 */
export async function getPlatformBalance(db: Db): Promise<Cents> {
  return parseCents(await sumPlatformBalance(db));
}

/** The ledger's total of one kind of movement for an order, in cents (what a take-back gave back so far). */
export async function sumOrderMovements(db: Db, orderId: string, kind: LedgerKind): Promise<Cents> {
  return parseCents(await sumOrderLedger(db, orderId, kind));
}

/** The ledger's total of one kind of movement for one order's part of a dispute, in cents. */
export async function sumDisputeOrderMovements(
  db: Db,
  disputeId: string,
  orderId: string,
  kind: LedgerKind,
): Promise<Cents> {
  return parseCents(await sumDisputeOrderLedger(db, disputeId, orderId, kind));
}

/** The ledger's total of one kind of movement for a dispute, in cents. */
export async function sumDisputeMovements(db: Db, disputeId: string, kind: LedgerKind): Promise<Cents> {
  return parseCents(await sumDisputeLedger(db, disputeId, kind));
}

/**
 * The prevented dispute whose money left through the provider's refund `providerRefundId` (its
 * `dispute` entry names the refund; docs/decisions/0022-money-in-combinations.md), with that amount
 * in cents; undefined for a refund no dispute took.
 */
export async function findDisputeOfProviderRefund(
  db: Db,
  providerRefundId: string,
): Promise<{ disputeId: string; paymentId: string | null; amount: Cents; currency: string } | undefined> {
  const row = await findDisputeEntryOfRefund(db, providerRefundId);
  if (!row?.disputeId) return undefined;
  return {
    disputeId: row.disputeId,
    paymentId: row.paymentId,
    amount: parseCents(row.amount),
    currency: row.currency,
  };
}

/** The ledger's total of one kind of movement for a refund, in cents. */
export async function sumRefundMovements(db: Db, refundId: string, kind: LedgerKind): Promise<Cents> {
  return parseCents(await sumRefundLedger(db, refundId, kind));
}
