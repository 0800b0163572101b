import { WebhookSignatureError, type PaymentWebhookEvent } from '../../adapters/payments/payment-provider';
import { badRequest, notFound } from '../../platform/errors';
import type { PaymentDeps } from './payment-deps';
import { findPaymentByProviderId } from './payments.queries';
import { processPaidPayment } from './process-paid-payment';
import { chargeMatches } from './charge-check';
import { applyRefundEvent } from '../refunds/refunds.service';
import { applyDisputeEvent, applyPreventionRefundEvent } from '../disputes/disputes.service';

/**
 * POST /api/stripe/webhook: the signature is checked over the raw body by the Stripe library;
 * payment_intent.succeeded goes through the same amount check and exactly-once processing as the
 * confirm call; refund events move the refund to the state Stripe reports; dispute events are
 * read again from Stripe and applied by the disputes (docs/decisions/0018-money-against-stripe.md,
 * Disputes), which release or take back payouts.
 */
export async function handlePaymentWebhook(
  deps: PaymentDeps,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<{ received: true }> {
  const { payments: provider } = deps;
  if (!provider.parseWebhook) throw notFound();
  let event: PaymentWebhookEvent;
  try {
    event = provider.parseWebhook(rawBody, signature);
  } catch (error) {
    if (error instanceof WebhookSignatureError)
      throw badRequest(`Webhook signature check failed: ${error.message}`);
    throw error;
  }
  if (event.type === 'refund_updated') {
    // A refund not ours may be the one Stripe made to resolve a prevented dispute
    // (docs/decisions/0022-money-in-combinations.md, A prevented dispute whose refund fails).
    const known =
      (await applyRefundEvent(deps, event.refund)) || (await applyPreventionRefundEvent(deps, event.refund));
    if (!known)
      deps.log.warn(
        { providerRefundId: event.refund.providerRefundId },
        'refund event for an unknown refund; ignored',
      );
    return { received: true };
  }
  if (event.type === 'dispute_changed') {
    await applyDisputeEvent(deps, event.providerDisputeId, event.eventType);
    return { received: true };
  }
  if (event.type !== 'payment_succeeded') return { received: true };
  const payment = await findPaymentByProviderId(deps.db, provider.name, event.providerPaymentId);
  if (!payment) {
    deps.log.warn({ providerPaymentId: event.providerPaymentId }, 'webhook for an unknown payment; ignored');
    return { received: true };
  }
  // The same check as the confirm call: an intent charged for another amount never makes orders.
  // It is acknowledged (Stripe would only send it again) and logged for a person to look at.
  if (!chargeMatches(payment, event)) {
    deps.log.error(
      { paymentId: payment.id, charged: event.amount, currency: event.currency },
      'webhook amount differs from the payment; no order made',
    );
    return { received: true };
  }
  const outcome = await processPaidPayment(deps, payment.id, { chargeId: event.chargeId });
  deps.log.info({ paymentId: payment.id, outcome: outcome.kind }, 'payment webhook processed');
  return { received: true };
}
