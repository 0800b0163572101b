import type { PaymentDeps } from './payment-deps';
import { chargeMatches } from './charge-check';
import { ABANDONED_PAYMENT_MS } from './payment-times';
import {
  listUnprocessedPayments,
  markPaymentCancelled,
  type PageCursor,
  type PaymentRow,
} from './payments.queries';
import { processPaidPayment } from './process-paid-payment';
import { settleUnfinishedRefunds } from '../refunds/refunds.service';
import { learnMissingProviderFees } from './provider-fees';

const PAGE = 100;

export interface RecoveryReport {
  /** Charged payments turned into their orders (or refunded) now. */
  processed: number;
  /** Abandoned payments cancelled at the provider. */
  cancelled: number;
  /** Refunds made at the provider now. */
  refundsMade: number;
  /** Pending refunds asked about again. */
  refundsRechecked: number;
  /** Provider fees of processed payments learnt now (docs/decisions/0018-money-against-stripe.md, Provider fees). */
  feesLearnt: number;
}

type Outcome = 'processed' | 'cancelled' | 'open';

/** One payment not yet processed: made into orders once charged, cancelled once abandoned. */
async function recoverPayment(deps: PaymentDeps, payment: PaymentRow): Promise<Outcome> {
  const { payments: provider } = deps;
  let remote = await provider.retrievePayment(payment.providerPaymentId);
  const abandoned = deps.now().getTime() - payment.createdAt.getTime() > ABANDONED_PAYMENT_MS;
  if (remote.status === 'requires_payment' && abandoned) {
    remote = await provider.cancelPayment(payment.providerPaymentId);
    if (remote.status === 'canceled') deps.log.info({ paymentId: payment.id }, 'abandoned payment cancelled');
  }
  if (remote.status === 'canceled') {
    await markPaymentCancelled(deps.db, payment.id, deps.now());
    return 'cancelled';
  }
  if (remote.status !== 'succeeded') return 'open';
  if (!chargeMatches(payment, remote)) {
    deps.log.error(
      { paymentId: payment.id, remote },
      'provider amount differs from the payment; no order made',
    );
    return 'open';
  }
  const outcome = await processPaidPayment(deps, payment.id, { chargeId: remote.chargeId });
  return outcome.kind === 'already' ? 'open' : 'processed';
}

/**
 * What a crash or a lost answer left unfinished (docs/rules/money.md, Payments; run at start-up
 * and on the timer): every payment not yet processed is looked at, however many there are (keyset
 * pages): a charged one makes its orders, an abandoned one is cancelled at the provider; then
 * every unfinished refund is made or asked about again, and the provider's fee of every processed
 * payment whose fee is not known yet is asked for. One payment's failure is logged and left for
 * the next run.
 */
export async function recoverPaidCheckouts(deps: PaymentDeps): Promise<RecoveryReport> {
  const report: RecoveryReport = {
    processed: 0,
    cancelled: 0,
    refundsMade: 0,
    refundsRechecked: 0,
    feesLearnt: 0,
  };
  let cursor: PageCursor | undefined;
  for (;;) {
    const page = await listUnprocessedPayments(deps.db, cursor, PAGE);
    for (const payment of page) {
      if (payment.provider !== deps.payments.name) continue;
      try {
        const outcome = await recoverPayment(deps, payment);
        if (outcome === 'processed') report.processed += 1;
        if (outcome === 'cancelled') report.cancelled += 1;
      } catch (error) {
        deps.log.error({ err: error, paymentId: payment.id }, 'could not recover a payment; will retry');
      }
    }
    const last = page.at(-1);
    if (!last || page.length < PAGE) break;
    cursor = { createdAt: last.createdAt, id: last.id };
  }
  const refunds = await settleUnfinishedRefunds(deps);
  report.refundsMade = refunds.made;
  report.refundsRechecked = refunds.rechecked;
  report.feesLearnt = await learnMissingProviderFees(deps);
  if (report.processed + report.cancelled + report.refundsMade + report.feesLearnt > 0)
    deps.log.info(report, 'payments recovered');
  return report;
}
