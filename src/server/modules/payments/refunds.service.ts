import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { PaymentProvider, ProviderRefund } from '../../adapters/payments/payment-provider';
import { formatCents, parseCents, type Cents } from '../../../domain/money';
import type { RefundNeedingAttention } from '../../../domain/refunds';
import { recordRefundMade } from '../ledger/ledger.service';
import {
  findPaymentById,
  findRefundById,
  findRefundByProviderId,
  insertRefund,
  listRefundsNeedingAttention,
  listUnfinishedRefunds,
  recordRefundAttempt,
  setPaymentStatus,
  setRefundLastError,
  setRefundState,
  sumRefundsOfPayment,
  type PageCursor,
  type RefundRow,
} from './payments.queries';

export interface RefundDeps {
  db: Db;
  payments: PaymentProvider;
  now: () => Date;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

/**
 * Stripe keeps an idempotency key 24 hours. A retry later than this after the first call may reach
 * Stripe with a forgotten key, so it first looks for the refund among the payment's refunds
 * (docs/decisions/0013-money-movement.md, Payments and refunds).
 */
export const IDEMPOTENCY_WINDOW_MS = 23 * 60 * 60 * 1000;

const PAGE = 100;

/**
 * Records the refund of one order (a cancellation) inside the caller's transaction, and sets the
 * payment to refunded or partially_refunded. The money moves afterwards, in `executeRefund`: the
 * row is written first so a crash between the two is finished later (`settleUnfinishedRefunds`).
 * `refunds.order_id` is unique, so an order is refunded at most once.
 */
export async function recordOrderRefund(
  tx: Db,
  input: { paymentId: string; orderId: string; amount: Cents; reason: string; now: Date },
): Promise<RefundRow | undefined> {
  const payment = await findPaymentById(tx, input.paymentId);
  if (!payment || input.amount <= 0) return undefined;
  const refund = await insertRefund(tx, {
    paymentId: input.paymentId,
    orderId: input.orderId,
    amount: formatCents(input.amount),
    reason: input.reason,
    createdAt: input.now,
    updatedAt: input.now,
  });
  const refunded = parseCents(await sumRefundsOfPayment(tx, input.paymentId));
  const status = refunded >= parseCents(payment.amount) ? 'refunded' : 'partially_refunded';
  await setPaymentStatus(tx, input.paymentId, status, input.now);
  return refund;
}

function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, 500);
}

async function applyProviderRefund(
  deps: RefundDeps,
  refund: RefundRow,
  found: ProviderRefund,
): Promise<void> {
  const now = deps.now();
  // A refund that succeeded goes to the ledger with its state, once (docs/decisions/0013-money-movement.md, Transfers and the ledger).
  await deps.db.transaction(async (tx) => {
    await setRefundState(tx, refund.id, {
      providerRefundId: found.providerRefundId,
      status: found.status,
      failureReason: found.failureReason,
      now,
    });
    if (found.status === 'succeeded') await recordRefundMade(tx, refund, found.providerRefundId, now);
  });
  const log = found.status === 'failed' ? deps.log.error.bind(deps.log) : deps.log.info.bind(deps.log);
  log(
    {
      refundId: refund.id,
      paymentId: refund.paymentId,
      providerRefundId: found.providerRefundId,
      status: found.status,
    },
    found.status === 'failed' ? 'refund failed at the provider' : 'refund state',
  );
}

/**
 * Moves the money back through the provider, once. The first call, and any retry within Stripe's
 * key window, carries the key `refund-<refunds.id>`, so asking twice refunds once. A retry after
 * the window first looks for a refund with our id in its metadata at the provider and adopts it;
 * only when there is none is the refund made (docs/decisions/0013-money-movement.md). A provider
 * that cannot be reached leaves the refund pending with its error; the timer tries again. Answers
 * whether the provider now knows the refund.
 */
export async function executeRefund(deps: RefundDeps, refund: RefundRow): Promise<boolean> {
  const payment = await findPaymentById(deps.db, refund.paymentId);
  if (!payment) return false;
  const now = deps.now();
  // The first call was made at or after the row was written, so its key is surely alive within the window.
  const pastKeyWindow =
    refund.attempts > 0 && now.getTime() - refund.createdAt.getTime() > IDEMPOTENCY_WINDOW_MS;
  await recordRefundAttempt(deps.db, refund.id, now);
  try {
    const earlier = pastKeyWindow
      ? await deps.payments.findRefund(payment.providerPaymentId, refund.id)
      : undefined;
    const made =
      earlier ??
      (await deps.payments.refund({
        providerPaymentId: payment.providerPaymentId,
        amount: parseCents(refund.amount),
        refundId: refund.id,
        idempotencyKey: `refund-${refund.id}`,
        reason: refund.reason,
      }));
    await setRefundLastError(deps.db, refund.id, null, now);
    await applyProviderRefund(deps, refund, made);
    return true;
  } catch (error) {
    await setRefundLastError(deps.db, refund.id, describeError(error), now);
    deps.log.error({ err: error, refundId: refund.id, paymentId: payment.id }, 'refund not made; will retry');
    return false;
  }
}

/** A refund the provider already knows and that has not finished: ask again how it stands. */
async function recheckRefund(
  deps: RefundDeps,
  refund: RefundRow & { providerRefundId: string },
): Promise<void> {
  const now = deps.now();
  await recordRefundAttempt(deps.db, refund.id, now);
  try {
    const found = await deps.payments.retrieveRefund(refund.providerRefundId);
    await setRefundLastError(deps.db, refund.id, null, now);
    if (found.status !== refund.status) await applyProviderRefund(deps, refund, found);
  } catch (error) {
    await setRefundLastError(deps.db, refund.id, describeError(error), now);
    deps.log.error({ err: error, refundId: refund.id }, 'could not ask how a refund stands; will retry');
  }
}

export interface RefundSweep {
  /** Refunds made at the provider now (their first call had not completed). */
  made: number;
  /** Refunds already at the provider asked about again (pending, requires_action). */
  rechecked: number;
}

/**
 * Finishes every unfinished refund (start-up and the timer): makes those whose provider call never
 * completed and asks again about pending ones. Pages through all of them by keyset.
 */
export async function settleUnfinishedRefunds(deps: RefundDeps): Promise<RefundSweep> {
  const sweep: RefundSweep = { made: 0, rechecked: 0 };
  let cursor: PageCursor | undefined;
  for (;;) {
    const page = await listUnfinishedRefunds(deps.db, cursor, PAGE);
    for (const refund of page) {
      const payment = await findPaymentById(deps.db, refund.paymentId);
      // A refund of a payment taken by another provider (the settings changed) cannot be made here.
      if (!payment || payment.provider !== deps.payments.name) continue;
      if (refund.providerRefundId) {
        await recheckRefund(deps, { ...refund, providerRefundId: refund.providerRefundId });
        sweep.rechecked += 1;
      } else if (await executeRefund(deps, refund)) sweep.made += 1;
    }
    const last = page.at(-1);
    if (!last || page.length < PAGE) return sweep;
    cursor = { createdAt: last.createdAt, id: last.id };
  }
}

/**
 * A refund event of the provider (Stripe: refund.updated, refund.failed, charge.refund.updated):
 * the refund is found by its provider id, or by our id in its metadata when the answer of the
 * create call never arrived. A refund of another origin (the Dashboard) is only logged.
 */
export async function applyRefundEvent(deps: RefundDeps, event: ProviderRefund): Promise<void> {
  const refund =
    (await findRefundByProviderId(deps.db, event.providerRefundId)) ??
    (event.refundId ? await findRefundById(deps.db, event.refundId) : undefined);
  if (!refund) {
    deps.log.warn(
      { providerRefundId: event.providerRefundId },
      'refund event for an unknown refund; ignored',
    );
    return;
  }
  await applyProviderRefund(deps, refund, event);
}

/** GET /api/admin/refunds: refunds that failed or still wait, oldest first. */
export async function listRefundsForAdmin(db: Db): Promise<RefundNeedingAttention[]> {
  const rows = await listRefundsNeedingAttention(db, 500);
  return rows.map((row) => ({
    ...row,
    status: row.status as RefundNeedingAttention['status'], // the column's check constraint allows only these
    amount: formatCents(parseCents(row.amount)),
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  }));
}
