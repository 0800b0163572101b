import { WebhookSignatureError, type PaymentWebhookEvent } from '../../adapters/payments/payment-provider';
import { badRequest, notFound } from '../../platform/errors';
import type { PaymentDeps } from './payment-deps';
import { findPaymentByProviderId } from './payments.queries';
import { processPaidPayment } from './process-paid-payment';

/**
 * POST /api/stripe/webhook: the signature is checked over the raw body by the Stripe library;
 * payment_intent.succeeded goes through the same exactly-once processing as the confirm call.
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
  if (event.type !== 'payment_succeeded') return { received: true };
  const payment = await findPaymentByProviderId(deps.db, provider.name, event.providerPaymentId);
  if (!payment) {
    deps.log.warn({ providerPaymentId: event.providerPaymentId }, 'webhook for an unknown payment; ignored');
    return { received: true };
  }
  const outcome = await processPaidPayment(deps, payment.id);
  deps.log.info({ paymentId: payment.id, outcome: outcome.kind }, 'payment webhook processed');
  return { received: true };
}
