import crypto from 'node:crypto';
import { badRequest, conflict } from '../../platform/errors';
import type { Actor } from '../../platform/sessions';
import { isItemProblem } from '../checkout/checkout.service';
import { priceCheckout } from '../checkout/price-checkout';
import type { CheckoutBody, PaymentIntent } from '../../../domain/checkout';
import { formatCents } from '../../../domain/money';
import { callProvider, type PaymentDeps } from './payment-deps';
import { insertPayment } from './payments.queries';

/** Stripe's smallest USD charge; the test provider keeps the same rule so both behave alike. */
export const MINIMUM_CHARGE_CENTS = 50;

/**
 * POST /api/payments: prices the checkout again from the database, refuses it while anything is
 * wrong (400 for a missing or wrong choice with the spec's message, 409 for the items), creates the
 * payment for the grand total with the active provider and keeps the priced checkout with it.
 */
export async function createPayment(
  deps: PaymentDeps,
  actor: Actor,
  body: CheckoutBody,
): Promise<PaymentIntent> {
  const { quote, priced } = await priceCheckout(deps, actor, body);
  const choices = quote.problems.filter((found) => !isItemProblem(found));
  if (choices.length > 0) {
    const fields = Object.fromEntries(choices.map((found) => [found.field, found.message]));
    throw badRequest(choices[0]?.message ?? 'Missing information', fields);
  }
  const items = quote.problems.filter(isItemProblem);
  if (items.length > 0) throw conflict(items.map((found) => found.message).join('; '));
  if (priced.total < MINIMUM_CHARGE_CENTS)
    throw badRequest(`The total must be at least ${formatCents(MINIMUM_CHARGE_CENTS)} to pay by card`);

  const paymentId = crypto.randomUUID();
  const created = await callProvider(() =>
    deps.payments.createPayment({ paymentId, buyerId: actor.id, amount: priced.total, currency: 'usd' }),
  );
  await insertPayment(deps.db, {
    id: paymentId,
    buyerId: actor.id,
    provider: deps.payments.name,
    providerPaymentId: created.providerPaymentId,
    amount: formatCents(priced.total),
    currency: 'usd',
    status: 'requires_payment',
    checkout: priced,
    createdAt: deps.now(),
    updatedAt: deps.now(),
  });
  deps.log.info({ paymentId, provider: deps.payments.name, amount: priced.total }, 'payment created');
  return {
    paymentId,
    provider: deps.payments.name,
    clientSecret: created.clientSecret,
    publishableKey: deps.payments.publishableKey,
    amount: formatCents(priced.total),
    currency: 'usd',
    quote,
  };
}
