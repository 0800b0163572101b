import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { PaymentProvider } from '../../adapters/payments/payment-provider';
import { formatCents, parseCents, type Cents } from '../../../domain/money';
import {
  findPaymentById,
  insertRefund,
  listPendingRefunds,
  setPaymentStatus,
  setProviderRefundId,
  sumRefundsOfPayment,
  type RefundRow,
} from './payments.queries';

export interface RefundDeps {
  db: Db;
  payments: PaymentProvider;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

/**
 * Records the refund of one order (a cancellation) inside the caller's transaction, and sets the
 * payment to refunded or partially_refunded. The money moves afterwards, in `executeRefund`: the
 * row is written first so a crash between the two is finished later (`retryPendingRefunds`).
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
  });
  const refunded = parseCents(await sumRefundsOfPayment(tx, input.paymentId));
  const status = refunded >= parseCents(payment.amount) ? 'refunded' : 'partially_refunded';
  await setPaymentStatus(tx, input.paymentId, status, input.now);
  return refund;
}

/**
 * Moves the money back through the provider. The refund row's id is the idempotency key, so asking
 * twice refunds once. A provider that cannot be reached leaves the refund pending: it is logged and
 * retried at the next start-up (`retryPendingRefunds`); the caller's answer does not fail.
 */
export async function executeRefund(deps: RefundDeps, refund: RefundRow): Promise<boolean> {
  const payment = await findPaymentById(deps.db, refund.paymentId);
  if (!payment) return false;
  try {
    const { providerRefundId } = await deps.payments.refund({
      providerPaymentId: payment.providerPaymentId,
      amount: parseCents(refund.amount),
      idempotencyKey: refund.id,
      reason: refund.reason,
    });
    await setProviderRefundId(deps.db, refund.id, providerRefundId);
    deps.log.info({ refundId: refund.id, paymentId: payment.id, providerRefundId }, 'refund made');
    return true;
  } catch (error) {
    deps.log.error({ err: error, refundId: refund.id, paymentId: payment.id }, 'refund failed; will retry');
    return false;
  }
}

/** Finishes refunds whose provider call never completed (start-up recovery). */
export async function retryPendingRefunds(deps: RefundDeps): Promise<number> {
  let made = 0;
  for (const refund of await listPendingRefunds(deps.db, 500)) {
    const payment = await findPaymentById(deps.db, refund.paymentId);
    // A refund of a payment taken by another provider (the settings changed) cannot be made here.
    if (!payment || payment.provider !== deps.payments.name) continue;
    if (await executeRefund(deps, refund)) made += 1;
  }
  return made;
}
