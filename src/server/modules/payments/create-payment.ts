import crypto from 'node:crypto';
import { badRequest, conflict, sqlStateOf } from '../../platform/errors';
import type { Actor } from '../../platform/sessions';
import { isItemProblem, type PricedCheckout } from '../checkout/checkout.service';
import { priceCheckout } from '../checkout/price-checkout';
import {
  CHECKOUT_ALREADY_PAID_MESSAGE,
  type CheckoutBody,
  type PaymentIntent,
} from '../../../domain/checkout';
import { formatCents, parseCents } from '../../../domain/money';
import { chargeMatches } from './charge-check';
import { callProvider, type PaymentDeps } from './payment-deps';
import { QUOTE_VALID_MS } from './payment-times';
import {
  findOpenPaymentOfCheckout,
  insertPayment,
  markPaymentCancelled,
  type PaymentRow,
} from './payments.queries';
import { processPaidPayment } from './process-paid-payment';

/** Stripe's smallest USD charge; the test provider keeps the same rule so both behave alike. */
export const MINIMUM_CHARGE_CENTS = 50;

/**
 * What makes two checkouts the same one: the buyer, the items and quantities of each seller, the
 * way of delivery, the address, the pickup times and the notes; not the prices (a changed price is
 * the same checkout at another total, whose open payment is then replaced).
 */
export function checkoutKeyOf(priced: PricedCheckout): string {
  const canonical = {
    buyerId: priced.buyerId,
    isPickup: priced.isPickup,
    deliveryAddressId: priced.deliveryAddressId,
    deliveryNotes: priced.deliveryNotes,
    orders: priced.orders
      .map((order) => ({
        sellerId: order.sellerId,
        pickup: order.scheduledPickupTime,
        items: order.items
          .map((item) => [item.productId, item.quantity] as const)
          .sort(([a], [b]) => a.localeCompare(b)),
      }))
      .sort((a, b) => a.sellerId.localeCompare(b.sellerId)),
  };
  return crypto.createHash('sha256').update(JSON.stringify(canonical)).digest('base64url');
}

type Reuse = { kind: 'reuse'; payment: PaymentRow; clientSecret: string | null } | { kind: 'new' };

/**
 * The open payment of the same checkout (a reload of the payment screen, a second tab): one that is
 * charged or being charged refuses a second payment (409), one still waiting for the card is reused
 * while its quote is fresh and its total unchanged, and is otherwise cancelled at the provider and
 * replaced (docs/decisions/0013-money-movement.md, Payments and refunds).
 */
async function reuseOpenPayment(deps: PaymentDeps, open: PaymentRow, total: number): Promise<Reuse> {
  const { payments: provider } = deps;
  if (open.status === 'succeeded') throw conflict(CHECKOUT_ALREADY_PAID_MESSAGE);
  if (open.provider !== provider.name) {
    // Started with another provider (the settings changed): it cannot be asked about or paid here.
    await markPaymentCancelled(deps.db, open.id, deps.now());
    return { kind: 'new' };
  }
  let remote = await callProvider(() => provider.retrievePayment(open.providerPaymentId));
  const fresh = deps.now().getTime() - open.createdAt.getTime() <= QUOTE_VALID_MS;
  if (remote.status === 'requires_payment' && fresh && parseCents(open.amount) === total)
    return { kind: 'reuse', payment: open, clientSecret: remote.clientSecret };
  if (remote.status === 'requires_payment')
    remote = await callProvider(() => provider.cancelPayment(open.providerPaymentId));
  if (remote.status === 'canceled') {
    await markPaymentCancelled(deps.db, open.id, deps.now());
    return { kind: 'new' };
  }
  // Charged (make its orders now, if the webhook has not yet) or still being charged.
  if (remote.status === 'succeeded' && chargeMatches(open, remote))
    await processPaidPayment(deps, open.id, { chargeId: remote.chargeId });
  throw conflict(CHECKOUT_ALREADY_PAID_MESSAGE);
}

/**
 * POST /api/payments: prices the checkout again from the database, refuses it while anything is
 * wrong (400 for a missing or wrong choice with the spec's message, 409 for the items), and answers
 * the payment of this checkout: the open one of the same checkout when it can be reused, else a new
 * one for the grand total with the active provider, keeping the priced checkout with it. A checkout
 * already paid, or being paid, is a 409.
 */
export async function createPayment(
  deps: PaymentDeps,
  actor: Actor,
  body: CheckoutBody,
): Promise<PaymentIntent> {
  // The buyer's open payments are read with the products: the one of this checkout is read whole
  // only when there is one (docs/decisions/0025-checkout-statements.md, The open payment read with
  // the products).
  const { quote, priced, openPayments } = await priceCheckout(deps, actor, body, { openPayments: true });
  const choices = quote.problems.filter((found) => !isItemProblem(found));
  if (choices.length > 0) {
    const fields = Object.fromEntries(choices.map((found) => [found.field, found.message]));
    throw badRequest(choices[0]?.message ?? 'Missing information', fields);
  }
  const items = quote.problems.filter(isItemProblem);
  if (items.length > 0) throw conflict(items.map((found) => found.message).join('; '));
  if (priced.total < MINIMUM_CHARGE_CENTS)
    throw badRequest(`The total must be at least ${formatCents(MINIMUM_CHARGE_CENTS)} to pay by card`);

  const checkoutKey = checkoutKeyOf(priced);

  const answer = (payment: { id: string; provider: string }, clientSecret: string | null): PaymentIntent => ({
    paymentId: payment.id,
    provider: deps.payments.name,
    clientSecret,
    publishableKey: deps.payments.publishableKey,
    amount: formatCents(priced.total),
    currency: 'usd',
    quote,
  });

  for (let attempt = 0; ; attempt++) {
    // After a lost race (below) the products' read is out of date: the open payment is read again.
    const open =
      attempt === 0 && openPayments && !openPayments.has(checkoutKey)
        ? undefined
        : await findOpenPaymentOfCheckout(deps.db, actor.id, checkoutKey);
    if (open) {
      const reuse = await reuseOpenPayment(deps, open, priced.total);
      if (reuse.kind === 'reuse') {
        deps.log.info({ paymentId: open.id }, 'open payment of the same checkout reused');
        return answer(reuse.payment, reuse.clientSecret);
      }
    }
    const paymentId = crypto.randomUUID();
    const created = await callProvider(() =>
      deps.payments.createPayment({
        paymentId,
        buyerId: actor.id,
        amount: priced.total,
        currency: 'usd',
        transferGroup: `payment_${paymentId}`,
      }),
    );
    try {
      await insertPayment(deps.db, {
        id: paymentId,
        buyerId: actor.id,
        provider: deps.payments.name,
        providerPaymentId: created.providerPaymentId,
        amount: formatCents(priced.total),
        currency: 'usd',
        status: 'requires_payment',
        checkout: priced,
        checkoutKey,
        transferGroup: `payment_${paymentId}`,
        createdAt: deps.now(),
        updatedAt: deps.now(),
      });
    } catch (error) {
      // Another request of the same checkout won the race (payments_open_checkout_unique): stop the
      // intent made here and answer that one's.
      if (sqlStateOf(error) !== '23505' || attempt > 0) throw error;
      await callProvider(() => deps.payments.cancelPayment(created.providerPaymentId)).catch(
        (cancelError: unknown) =>
          deps.log.error(
            { err: cancelError, providerPaymentId: created.providerPaymentId },
            'could not cancel a duplicate intent',
          ),
      );
      continue;
    }
    deps.log.info({ paymentId, provider: deps.payments.name, amount: priced.total }, 'payment created');
    return answer({ id: paymentId, provider: deps.payments.name }, created.clientSecret);
  }
}
