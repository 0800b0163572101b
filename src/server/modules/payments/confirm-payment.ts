import { AppError, badRequest, conflict } from '../../platform/errors';
import type { Actor } from '../../platform/sessions';
import {
  CARD_CVC_MESSAGE,
  CARD_EXPIRED_MESSAGE,
  CARD_EXPIRY_MESSAGE,
  CARD_NAME_MESSAGE,
  CARD_NUMBER_MESSAGE,
  isExpired,
  parseExpiry,
  type PaymentConfirmBody,
  type PaymentResult,
} from '../../../domain/checkout';
import { findOwnPaymentForOrders } from './get-payment';
import { AMOUNT_MISMATCH_MESSAGE, chargeMatches, PAYMENT_CANCELLED_MESSAGE } from './charge-check';
import { callProvider, type PaymentDeps } from './payment-deps';
import { answerProcessedPayment, placedPaymentResult, readPaymentResult } from './payment-result';
import { processPaidPayment } from './process-paid-payment';

function requireTestCard(body: PaymentConfirmBody, now: Date) {
  const missing: Record<string, string> = {};
  if (!body.cardNumber) missing.cardNumber = CARD_NUMBER_MESSAGE;
  if (!body.expiry) missing.expiry = CARD_EXPIRY_MESSAGE;
  if (!body.cvc) missing.cvc = CARD_CVC_MESSAGE;
  if (!body.name) missing.name = CARD_NAME_MESSAGE;
  if (!body.cardNumber || !body.expiry || !body.cvc || !body.name) {
    const fields = Object.entries(missing).map(([field, message]) => `${field}: ${message}`);
    throw badRequest(`Invalid request. ${fields.join('; ')}`, missing);
  }
  const expiry = parseExpiry(body.expiry);
  if (!expiry) throw badRequest(CARD_EXPIRY_MESSAGE, { expiry: CARD_EXPIRY_MESSAGE });
  if (isExpired(expiry, now)) throw badRequest(CARD_EXPIRED_MESSAGE, { expiry: CARD_EXPIRED_MESSAGE });
  return { cardNumber: body.cardNumber, expiry: body.expiry, cvc: body.cvc, name: body.name };
}

/**
 * POST /api/payments/{id}/confirm. Test provider: charges the card (402 with the card's message when
 * declined) and makes the orders. Stripe: the browser has confirmed the card with Stripe.js; this
 * asks Stripe how the payment stands and makes the orders once it succeeded. Reporting success
 * again (double click, reload) answers the same orders.
 */
export async function confirmPayment(
  deps: PaymentDeps,
  actor: Actor,
  id: string,
  body: PaymentConfirmBody,
): Promise<PaymentResult> {
  const read = await findOwnPaymentForOrders(deps.db, actor, id, deps.now());
  const { payment } = read;
  if (payment.processedAt) return answerProcessedPayment(deps, payment);
  const { payments: provider } = deps;
  if (payment.provider !== provider.name)
    throw conflict('This payment was started with another payment provider. Please check out again.');
  if (payment.status === 'cancelled') throw conflict(PAYMENT_CANCELLED_MESSAGE);

  let chargeId: string | null = null;
  if (provider.confirmCard) {
    if (payment.status === 'requires_payment') {
      const card = requireTestCard(body, deps.now());
      const outcome = await provider.confirmCard(payment.providerPaymentId, card);
      if (outcome.outcome === 'declined') {
        deps.log.info({ paymentId: id }, 'card declined');
        throw new AppError('payment_failed', outcome.message);
      }
      chargeId = outcome.chargeId;
    } else chargeId = (await provider.retrievePayment(payment.providerPaymentId)).chargeId;
  } else {
    if (body.cardNumber || body.cvc || body.expiry)
      throw badRequest('Card details are entered in the card form of Stripe and never sent to this server');
    const remote = await callProvider(() => provider.retrievePayment(payment.providerPaymentId));
    if (remote.status === 'canceled') throw conflict(PAYMENT_CANCELLED_MESSAGE);
    if (remote.status !== 'succeeded') {
      const result = await readPaymentResult(deps, payment);
      return { ...result, status: remote.status === 'processing' ? 'processing' : 'requires_payment' };
    }
    if (!chargeMatches(payment, remote)) {
      deps.log.error({ paymentId: id, remote }, 'provider amount differs from the payment');
      throw conflict(AMOUNT_MISMATCH_MESSAGE);
    }
    chargeId = remote.chargeId;
  }
  const processed = await processPaidPayment(deps, payment.id, { chargeId }, read);
  // The orders this call made are answered as its transaction wrote them; any other outcome is read.
  if (processed.kind === 'placed') return placedPaymentResult(processed);
  return answerProcessedPayment(deps, payment);
}
