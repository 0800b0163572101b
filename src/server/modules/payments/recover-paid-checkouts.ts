import { parseCents } from '../../../domain/money';
import type { PaymentDeps } from './payment-deps';
import { listUnprocessedPayments } from './payments.queries';
import { processPaidPayment } from './process-paid-payment';
import { retryPendingRefunds } from './refunds.service';

const RECOVERY_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

export interface RecoveryReport {
  processed: number;
  refundsRetried: number;
}

/**
 * Start-up recovery (docs/product-rules.md, Payments: a crash between charge and order creation is
 * never lost): payments charged but not processed are processed now, Stripe payments not yet known
 * to be charged are asked about, and refunds whose provider call never completed are made.
 */
export async function recoverPaidCheckouts(deps: PaymentDeps): Promise<RecoveryReport> {
  const { payments: provider } = deps;
  let processed = 0;
  const since = new Date(deps.now().getTime() - RECOVERY_WINDOW_MS);
  for (const payment of await listUnprocessedPayments(deps.db, since, 500)) {
    if (payment.provider !== provider.name) continue;
    try {
      if (payment.status !== 'succeeded') {
        const remote = await provider.retrievePayment(payment.providerPaymentId);
        if (remote.status !== 'succeeded' || remote.amount !== parseCents(payment.amount)) continue;
      }
      const outcome = await processPaidPayment(deps, payment.id);
      if (outcome.kind !== 'already') processed += 1;
    } catch (error) {
      deps.log.error(
        { err: error, paymentId: payment.id },
        'could not recover a payment; will retry at next start',
      );
    }
  }
  const refundsRetried = await retryPendingRefunds(deps);
  if (processed > 0 || refundsRetried > 0)
    deps.log.info({ processed, refundsRetried }, 'recovered paid checkouts');
  return { processed, refundsRetried };
}
