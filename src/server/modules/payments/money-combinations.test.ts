import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { eq } from 'drizzle-orm';
import { disputes, ledgerEntries, orders, payoutReversals } from '../../db/schema';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import type { FakeStripeEvent } from '../../testing/stripe-server';
import { startStripeWorld, type StripeWorld } from '../../testing/stripe-world';
import {
  confirm,
  createAddress,
  createProduct,
  paymentRow,
  refundsOf,
  startPayment,
  type OrderJson,
  type PaymentJson,
} from '../../testing/commerce';
import {
  makeAccountReady,
  moveOrder,
  orderInTransit,
  payoutsOf,
  verifiedDriver,
} from '../../testing/payout-scenes';
import { StripePayoutTransfers } from '../../adapters/payouts/stripe-payout-transfers';
import { StripePaymentProvider } from '../../adapters/payments/stripe-payment-provider';
import type { StripeConfig } from '../../config';
import { PAYMENT_DISPUTED_REFUND, refundItemsLeftMessage, type AdminPayouts } from '../../../domain/payouts';
import type { RefundNeedingAttention } from '../../../domain/refunds';
import { parseCents, shareOf } from '../../../domain/money';
import { reconcile } from '../ledger/reconcile';
import { reconcileWithProvider } from '../ledger/provider-reconcile';
import { retryPayouts } from '../payouts/settle-payouts';
import { transferKeyOf } from '../payouts/payout-deps';
import { settleUnfinishedRefunds } from '../refunds/refunds.service';

/**
 * Refunds, disputes and payouts interleaved (docs/decisions/0022-money-in-combinations.md), against
 * the faithful local Stripe (`startStripeWorld`, docs/decisions/0018-money-against-stripe.md): each
 * finding of the review that led to decision 0022, played through the real routes and the signed
 * webhooks, asserting what the decision says the marketplace does. After each: no 5xx from any
 * route or webhook, `reconcile` names no discrepancy, and the ledger matches Stripe's balance
 * transactions (the provider reconcile), a loss the platform bears being named, not a discrepancy.
 *
 * Every test has an app (its own database) and a local Stripe of its own, so what one leaves
 * behind never shows in another's reconcile.
 */
const webhookSecret = 'whsec_moneycombinations';
const signer = new Stripe('sk_test_signer');
const log = { info: () => {}, warn: () => {}, error: () => {} };
const HOUR = 60 * 60 * 1000;

let t: TestApp;
let world: StripeWorld;
let admin: TestUser;
/** Environment added to the app's (a describe sets PAYOUT_HOLD_HOURS). */
let appEnv: Record<string, string> = {};
/** The app's clock runs this far ahead of the wall clock, as does the local Stripe's (`moveClocks`). */
let ahead = 0;
let startedAt = new Date();
const now = () => new Date(Date.now() + ahead);
function moveClocks(ms: number): void {
  ahead += ms;
  world.server.advance(ms);
}

beforeEach(async () => {
  ahead = 0;
  startedAt = new Date();
  // The platform has money available from before ($1,000.00), as a live one does: Stripe pays
  // refunds (and a transfer without a source charge) from the available balance, not pending charges.
  world = await startStripeWorld({ platformAvailable: 100_000 });
  t = await createTestApp({
    payoutRetryMs: 0,
    now,
    env: {
      ...world.env,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_moneycombinations',
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      ...appEnv,
    },
  });
  admin = await signedInAs(t, 'admin');
});
afterEach(async () => {
  const statuses = t.statuses;
  await t.close();
  await world.close();
  expect(statuses.filter((s) => s >= 500)).toEqual([]);
});

const cents = (money: string | undefined | null) => parseCents(money ?? '0');

function stripeConfig(): StripeConfig {
  if (!t.config.stripe) throw new Error('Stripe is not configured');
  return t.config.stripe;
}

/** Pays through Stripe: the intent, Stripe.js's card confirmation, and the browser's report. */
async function payWithStripe(buyer: TestUser, body: Record<string, unknown>): Promise<OrderJson[]> {
  const started = await startPayment(t, buyer, body);
  if (started.statusCode !== 201) throw new Error(`payment failed: ${started.statusCode} ${started.body}`);
  const { paymentId } = started.json<PaymentJson>();
  const row = await paymentRow(t, paymentId);
  world.server.succeed(row?.providerPaymentId ?? '');
  const confirmed = await confirm(t, buyer, paymentId, {});
  if (confirmed.statusCode !== 200)
    throw new Error(`confirm failed: ${confirmed.statusCode} ${confirmed.body}`);
  return confirmed.json<{ orders: OrderJson[] }>().orders;
}

/** A connected account at Stripe that finished onboarding, recorded as ready for the user. */
async function onboard(userId: string): Promise<string> {
  const account = await world.stripe.accounts.create({
    type: 'express',
    capabilities: { transfers: { requested: true } },
  });
  world.connect.complete(account.id);
  return makeAccountReady(t, userId, account.id);
}

/** One payment of the same buyer for one product of each of several sellers: an order per seller. */
async function onePayment(lines: Array<{ price: string; quantity?: number }>) {
  const buyer = await signedInAs(t, 'buyer');
  const address = await createAddress(t, buyer.id);
  const sellers: TestUser[] = [];
  const items: Array<{ productId: string; quantity: number }> = [];
  for (const line of lines) {
    const seller = await signedInAs(t, 'seller');
    await createAddress(t, seller.id);
    const product = await createProduct(t, seller.id, { price: line.price });
    sellers.push(seller);
    items.push({ productId: product.id, quantity: line.quantity ?? 1 });
  }
  const made = await payWithStripe(buyer, { items, isPickup: false, deliveryAddressId: address.id });
  const ordersOfSellers = sellers.map((seller) => {
    const order = made.find((o) => o.sellerId === seller.id);
    if (!order) throw new Error('no order of the seller');
    return order;
  });
  const payment = await paymentOfOrder(ordersOfSellers[0]?.id ?? '');
  return { buyer, sellers, orders: ordersOfSellers, payment };
}

/** A verified driver (onboarded at Stripe unless told not to) takes the order and delivers it. */
async function deliver(order: OrderJson, options: { onboardDriver?: boolean } = {}) {
  const driver = await verifiedDriver(t);
  const driverAccount = options.onboardDriver === false ? null : await onboard(driver.id);
  const accepted = await as(t, driver, { method: 'POST', url: `/api/orders/${order.id}/assign` });
  expect(accepted.statusCode, said(accepted)).toBe(200);
  expect((await moveOrder(t, driver, order.id, 'in-transit')).statusCode).toBe(200);
  const delivered = await moveOrder(t, driver, order.id, 'delivered');
  expect(delivered.statusCode, said(delivered)).toBe(200);
  return { driver, driverAccount };
}

async function paymentOfOrder(orderId: string) {
  const [order] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
  const payment = await paymentRow(t, order?.paymentId ?? '');
  if (!payment?.providerChargeId) throw new Error('no charge');
  return { ...payment, providerChargeId: payment.providerChargeId };
}

/** What a response said, for an assertion's message: its error message, or the refund state of the order. */
function said(response: { body: string }): string {
  try {
    const json = JSON.parse(response.body) as Record<string, unknown>;
    if (typeof json.message === 'string') return json.message;
    if ('refundState' in json)
      return `refundState ${String(json.refundState)}, refundedAmount ${String(json.refundedAmount)}`;
  } catch {
    // not JSON: the body itself
  }
  return response.body.slice(0, 300);
}

/** The admin's refund of a finished order (POST /api/admin/orders/{id}/refund). */
function refund(orderId: string, body: Record<string, unknown> = {}) {
  return as(t, admin, {
    method: 'POST',
    url: `/api/admin/orders/${orderId}/refund`,
    payload: { reason: 'Part of it arrived broken', ...body },
  });
}

/** The cardholder disputes the payment's charge at Stripe (the whole charge unless an amount is given). */
function openDispute(payment: { providerChargeId: string }, amount?: number) {
  const opened = world.disputes.open(payment.providerChargeId, {
    reason: 'fraudulent',
    ...(amount === undefined ? {} : { amount }),
  });
  const [created, withdrawn] = opened.events;
  if (created?.type !== 'charge.dispute.created' || withdrawn?.type !== 'charge.dispute.funds_withdrawn')
    throw new Error(`unexpected events ${opened.events.map((e) => e.type).join(', ')}`);
  return { dispute: opened.dispute, created, withdrawn };
}

/** Posts an event to a webhook as Stripe sends it, signed. */
function sendEvent(event: FakeStripeEvent, url = '/api/stripe/webhook') {
  const payload = JSON.stringify(event);
  const signature = signer.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
  return t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });
}

/** Every delivery of Stripe's events is acknowledged (200), in order. */
async function post(...events: FakeStripeEvent[]) {
  for (const event of events) {
    const response = await sendEvent(event);
    expect(response.statusCode, `${event.type}: ${response.body}`).toBe(200);
  }
}

/** Stripe's Connect webhook: `account.updated` with the account as it is now. */
async function accountUpdated(account: unknown) {
  const response = await sendEvent(
    world.server.event('account.updated', account),
    '/api/stripe/connect/webhook',
  );
  expect(response.statusCode, said(response)).toBe(200);
}

async function disputeRow(providerDisputeId: string) {
  const [row] = await t.database.db
    .select()
    .from(disputes)
    .where(eq(disputes.providerDisputeId, providerDisputeId));
  if (!row) throw new Error(`no dispute ${providerDisputeId}`);
  return row;
}

const transfersOfOrder = (orderId: string) =>
  world.transfers.transfers.filter((tr) => tr.metadata.orderId === orderId);

/** What a connected account kept of every transfer made to it: amount less amount reversed, in cents. */
const keptBy = (account: string | null) =>
  world.transfers.transfers
    .filter((tr) => tr.destination === account)
    .reduce((sum, tr) => sum + tr.amount - tr.amount_reversed, 0);

/** What a dispute took back from one order, in cents: its reversals, losses and fee given back. */
async function takenBackByDispute(orderId: string, disputeId: string) {
  const rows = await t.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.orderId, orderId));
  return rows
    .filter(
      (row) =>
        row.disputeId === disputeId &&
        ['reversal', 'reversal_loss', 'platform_fee_refund'].includes(row.kind),
    )
    .reduce((sum, row) => sum + cents(row.amount), 0);
}

async function ledgerOfKind(kind: string) {
  return t.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.kind, kind));
}

async function adminPayouts(): Promise<AdminPayouts> {
  const response = await as(t, admin, { method: 'GET', url: '/api/admin/payouts' });
  expect(response.statusCode, said(response)).toBe(200);
  return response.json<AdminPayouts>();
}

async function expectReconcileClean() {
  const report = await reconcile(t.database.db);
  expect(report.discrepancies, 'reconcile').toEqual([]);
  return report;
}

/** The ledger against Stripe's balance transactions since the test began. */
async function expectProviderReconcileClean() {
  const report = await reconcileWithProvider(t.database.db, new StripePaymentProvider(stripeConfig()), {
    from: new Date(startedAt.getTime() - HOUR),
    to: new Date(now().getTime() + HOUR),
  });
  if (report.kind !== 'compared') throw new Error(report.message);
  expect(report.discrepancies, 'provider reconcile').toEqual([]);
}

const payoutDeps = () => ({
  db: t.database.db,
  payouts: new StripePayoutTransfers(stripeConfig()),
  now,
  log,
  siteUrl: t.config.siteUrl,
});

describe('a lost dispute on a partly refunded payment', () => {
  it('a whole-charge dispute lost after a $10.00 refund takes back what was left of the order, and the $10.00 refunded twice is one loss the platform bears, by name', async () => {
    const s = await orderInTransit(t, {}, { price: '30.00' }, payWithStripe);
    await onboard(s.seller.id);
    await onboard(s.driver.id);
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    const sent = transfersOfOrder(s.order.id);
    expect(sent).toHaveLength(2);
    const total = cents(s.order.total);
    const refunded = await refund(s.order.id, { amount: '10.00' });
    expect(refunded.statusCode, said(refunded)).toBe(200);
    const payment = await paymentOfOrder(s.order.id);
    const lossesBefore = (await reconcile(t.database.db)).lossesBorne;

    // The cardholder disputes the whole charge, whatever was refunded of it before: Stripe withdraws it all.
    const { dispute, created, withdrawn } = openDispute(payment, cents(payment.amount));
    expect(dispute.amount).toBe(cents(payment.amount));
    await post(created, withdrawn);
    await post(...world.disputes.lose(dispute.id).events);

    const row = await disputeRow(dispute.id);
    expect(row.status).toBe('lost');
    expect(row.outcomeHandledAt, 'the lost dispute is handled').not.toBeNull();
    // What was left of the order (total − $10.00) is taken back: with the $10.00 refund before it,
    // every cent of the seller's and the driver's transfers is reversed at Stripe.
    expect(await takenBackByDispute(s.order.id, row.id)).toBe(total - 1000);
    expect(transfersOfOrder(s.order.id).map((tr) => tr.amount_reversed)).toEqual(sent.map((tr) => tr.amount));
    // The $10.00 the cardholder got twice (refunded, then disputed) is the platform's loss: one entry.
    expect((await ledgerOfKind('dispute_loss')).map((entry) => entry.amount)).toEqual(['10.00']);
    expect((await adminPayouts()).losses.map((loss) => loss.amount)).toEqual(['10.00']);
    const report = await expectReconcileClean();
    expect(report.lossesBorne - lossesBefore).toBe(1000);
    await expectProviderReconcileClean();
  });

  it('a dispute of what was left of a two-order charge, lost, takes from the refunded order only what was left of it and from the other its whole total', async () => {
    // Totals: $25.00 + $10.00 delivery = $35.00, and $45.00 + $10.00 = $55.00; one charge of $90.00.
    const { orders: made, payment } = await onePayment([{ price: '25.00' }, { price: '45.00' }]);
    const [refundedOrder, wholeOrder] = made;
    if (!refundedOrder || !wholeOrder) throw new Error('two orders expected');
    for (const order of made) await onboard(order.sellerId);
    for (const order of made) await deliver(order);
    const sent = [...transfersOfOrder(refundedOrder.id), ...transfersOfOrder(wholeOrder.id)];
    expect(sent).toHaveLength(4);
    const refunded = await refund(refundedOrder.id, { amount: '30.00' });
    expect(refunded.statusCode, said(refunded)).toBe(200);

    // The cardholder disputes what is left of the charge: $90.00 − $30.00.
    const left = cents(payment.amount) - 3000;
    const { dispute, created, withdrawn } = openDispute(payment, left);
    await post(created, withdrawn);
    await post(...world.disputes.lose(dispute.id).events);

    const row = await disputeRow(dispute.id);
    expect(row.outcomeHandledAt, 'the lost dispute is handled').not.toBeNull();
    expect(await takenBackByDispute(refundedOrder.id, row.id)).toBe(cents(refundedOrder.total) - 3000);
    expect(await takenBackByDispute(wholeOrder.id, row.id)).toBe(cents(wholeOrder.total));
    // Both orders are now taken back in full: every transfer reversed, once.
    const after = [...transfersOfOrder(refundedOrder.id), ...transfersOfOrder(wholeOrder.id)];
    expect(after.map((tr) => tr.amount_reversed)).toEqual(sent.map((tr) => tr.amount));
    // Nothing was disputed twice: no loss.
    expect(await ledgerOfKind('dispute_loss')).toEqual([]);
    await expectReconcileClean();
    await expectProviderReconcileClean();
  });
});

describe('an admin refund while the payment is disputed', () => {
  it('is refused before anything is written while the dispute holds the funds, and made once the dispute is won', async () => {
    const s = await orderInTransit(t, {}, { price: '30.00' }, payWithStripe);
    await onboard(s.seller.id);
    await onboard(s.driver.id);
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    expect(transfersOfOrder(s.order.id)).toHaveLength(2);
    const payment = await paymentOfOrder(s.order.id);
    const { dispute, created, withdrawn } = openDispute(payment);
    await post(created, withdrawn);
    expect((await disputeRow(dispute.id)).status).toBe('needs_response');

    const from = world.server.requests.length;
    const refused = await refund(s.order.id);
    expect(refused.statusCode, said(refused)).toBe(409);
    expect(refused.json()).toMatchObject({ message: PAYMENT_DISPUTED_REFUND });
    // Nothing was taken from the seller and the driver, and no refund was recorded.
    expect(transfersOfOrder(s.order.id).map((tr) => tr.amount_reversed)).toEqual([0, 0]);
    expect(await refundsOf(t, payment.id)).toEqual([]);
    // The money jobs have nothing to send either.
    await retryPayouts(payoutDeps());
    await settleUnfinishedRefunds({
      ...payoutDeps(),
      payments: new StripePaymentProvider(stripeConfig()),
    });
    const posts = world.server.requests.slice(from).filter((r) => r.method === 'POST');
    expect(posts.filter((r) => r.path === '/v1/refunds')).toEqual([]);
    expect(posts.filter((r) => r.path.endsWith('/reversals'))).toEqual([]);
    await expectReconcileClean();

    // Won: the amount comes back, and the same refund is made.
    await post(...world.disputes.win(dispute.id).events);
    const made = await refund(s.order.id);
    expect(made.statusCode, said(made)).toBe(200);
    expect(made.json()).toMatchObject({ refundState: 'refunded' });
    expect(
      world.server.refunds
        .filter((r) => r.payment_intent === payment.providerPaymentId)
        .map((r) => [r.amount, r.status]),
    ).toEqual([[cents(s.order.total), 'succeeded']]);
    await expectReconcileClean();
    await expectProviderReconcileClean();
  });
});

describe('a lost dispute on a payment whose other order was cancelled', () => {
  /** Two orders in one payment; the first cancelled (refunded at Stripe), the second delivered. */
  async function cancelledAndDelivered() {
    const { buyer, orders: made, payment } = await onePayment([{ price: '20.00' }, { price: '30.00' }]);
    const [cancelled, delivered] = made;
    if (!cancelled || !delivered) throw new Error('two orders expected');
    const cancel = await as(t, buyer, { method: 'POST', url: `/api/orders/${cancelled.id}/cancel` });
    expect(cancel.statusCode, said(cancel)).toBe(200);
    expect(
      world.server.refunds
        .filter((r) => r.payment_intent === payment.providerPaymentId)
        .map((r) => [r.amount, r.status]),
    ).toEqual([[cents(cancelled.total), 'succeeded']]);
    await onboard(delivered.sellerId);
    await deliver(delivered);
    return { cancelled, delivered, payment };
  }

  /** The cardholder disputes what is left of the charge (the delivered order), and loses. */
  async function disputeLost(payment: { amount: string; providerChargeId: string }, left: number) {
    const { dispute, created, withdrawn } = openDispute(payment, left);
    await post(created, withdrawn);
    await post(...world.disputes.lose(dispute.id).events);
    return disputeRow(dispute.id);
  }

  it('is handled at once: the delivered order gives back its paid-out shares, nothing stays held', async () => {
    const { cancelled, delivered, payment } = await cancelledAndDelivered();
    const sent = transfersOfOrder(delivered.id);
    expect(sent).toHaveLength(2);
    const row = await disputeLost(payment, cents(payment.amount) - cents(cancelled.total));

    expect(row.outcomeHandledAt, 'the lost dispute is handled').not.toBeNull();
    expect(await takenBackByDispute(delivered.id, row.id)).toBe(cents(delivered.total));
    expect(transfersOfOrder(delivered.id).map((tr) => tr.amount_reversed)).toEqual(
      sent.map((tr) => tr.amount),
    );
    for (const order of [cancelled, delivered]) {
      const statuses = Object.values(await payoutsOf(t, order.id)).map((p) => p.status);
      expect(statuses.filter((status) => ['owed', 'pending', 'failed'].includes(status))).toEqual([]);
    }
    expect(await ledgerOfKind('dispute_loss')).toEqual([]);
    await expectReconcileClean();
    await expectProviderReconcileClean();
  });

  describe('with payouts held by the return window', () => {
    beforeAll(() => {
      appEnv = { PAYOUT_HOLD_HOURS: '72' };
    });
    afterAll(() => {
      appEnv = {};
    });

    it('reduces the held payouts of the delivered order: cancelled, never sent, even after the hold', async () => {
      const { cancelled, delivered, payment } = await cancelledAndDelivered();
      expect(transfersOfOrder(delivered.id)).toEqual([]);
      const held = await payoutsOf(t, delivered.id);
      expect([held.seller?.status, held.driver?.status]).toEqual(['pending', 'pending']);
      const row = await disputeLost(payment, cents(payment.amount) - cents(cancelled.total));

      expect(row.outcomeHandledAt, 'the lost dispute is handled').not.toBeNull();
      const reduced = await payoutsOf(t, delivered.id);
      expect([reduced.seller?.status, reduced.driver?.status]).toEqual(['cancelled', 'cancelled']);
      // Past the hold the payout job still sends nothing.
      moveClocks(73 * HOUR);
      await retryPayouts(payoutDeps());
      expect(transfersOfOrder(delivered.id)).toEqual([]);
      await expectReconcileClean();
      await expectProviderReconcileClean();
    });
  });
});

describe('a payout reduced after its transfer may already exist', () => {
  /**
   * The seller's transfer is made at Stripe but its answer is lost (a 500 saved under its key), the
   * seller's account is restricted (so the payout job leaves the payout owed), and an admin refunds
   * $10.00 of the order. The driver has no payout account: their payout waits, owed.
   */
  async function transferAnswerLostThenRefund() {
    const s = await orderInTransit(t, {}, { price: '40.00' }, payWithStripe);
    const sellerAccount = await onboard(s.seller.id);
    world.server.failNextAfterRunning(1, { applied: true });
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    expect(transfersOfOrder(s.order.id).map((tr) => tr.metadata.party)).toEqual(['seller']);
    expect((await payoutsOf(t, s.order.id)).seller?.status).not.toBe('paid');
    await accountUpdated(world.connect.restrict(sellerAccount));
    // The payout job finds the account restricted: the payout waits for it, owed.
    await retryPayouts(payoutDeps());
    expect((await payoutsOf(t, s.order.id)).seller?.status).toBe('owed');
    const refunded = await refund(s.order.id, { amount: '10.00' });
    expect(refunded.statusCode, said(refunded)).toBe(200);
    return { s, sellerAccount };
  }

  async function expectSellerPaidLessItsShare(s: { order: OrderJson }, sellerAccount: string) {
    const earnings = cents(s.order.sellerEarnings);
    const share = shareOf(earnings, 1000, cents(s.order.total));
    const made = transfersOfOrder(s.order.id).filter((tr) => tr.metadata.party === 'seller');
    // The seller keeps exactly its earnings less its share of the $10.00, from one transfer.
    expect(keptBy(sellerAccount), 'what the seller kept').toBe(earnings - share);
    expect(made.map((tr) => tr.amount - tr.amount_reversed)).toEqual([earnings - share]);
    expect((await payoutsOf(t, s.order.id)).seller).toMatchObject({
      status: 'paid',
      providerTransferId: made[0]?.id,
    });
    await expectReconcileClean();
    await expectProviderReconcileClean();
  }

  it('within 24 hours, once the account is fixed: the transfer made is kept and the share reversed, never overpaid', async () => {
    const { s, sellerAccount } = await transferAnswerLostThenRefund();
    await accountUpdated(world.connect.complete(sellerAccount));
    await retryPayouts(payoutDeps());
    await expectSellerPaidLessItsShare(s, sellerAccount);
  });

  it('25 hours later, once the account is fixed: the transfer is found, not made again, and the share reversed', async () => {
    const { s, sellerAccount } = await transferAnswerLostThenRefund();
    moveClocks(25 * HOUR);
    await accountUpdated(world.connect.complete(sellerAccount));
    await retryPayouts(payoutDeps());
    await expectSellerPaidLessItsShare(s, sellerAccount);
  });
});

describe('an idempotency error', () => {
  it('is a refusal: the payout fails with a backoff and is not asked again at once', async () => {
    const s = await orderInTransit(t, {}, {}, payWithStripe);
    const sellerAccount = await onboard(s.seller.id);
    await onboard(s.driver.id);
    // An earlier request under the seller's payout key with other parameters (another amount), whose
    // 500 Stripe saved: any transfer under that key with the payout's amount is now answered
    // `idempotency_error` for 24 hours. Nothing was transferred.
    const firstAttempt = { orderId: s.order.id, kind: 'seller', keyGeneration: 0 };
    world.server.failNextAfterRunning(1);
    await expect(
      world.stripe.transfers.create(
        { amount: 1, currency: 'usd', destination: sellerAccount },
        { idempotencyKey: transferKeyOf(firstAttempt) },
      ),
    ).rejects.toThrow();
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    await retryPayouts(payoutDeps());
    const seller = (await payoutsOf(t, s.order.id)).seller;
    expect(seller?.status).toBe('failed');
    expect(seller?.nextAttemptAt?.getTime() ?? 0).toBeGreaterThan(now().getTime());

    const from = world.server.requests.length;
    await retryPayouts(payoutDeps());
    expect(world.server.requests.slice(from)).toEqual([]);
    expect(transfersOfOrder(s.order.id).map((tr) => tr.metadata.party)).toEqual(['driver']);
    await expectReconcileClean();
    await expectProviderReconcileClean();
  });
});

describe('a refund reported succeeded that later fails', () => {
  it('is undone: shown failed to the admin, the payees get their shares back, the order can be refunded again, and the books balance', async () => {
    const s = await orderInTransit(t, {}, { price: '30.00' }, payWithStripe);
    const sellerAccount = await onboard(s.seller.id);
    const driverAccount = await onboard(s.driver.id);
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    const payment = await paymentOfOrder(s.order.id);
    const whole = await refund(s.order.id);
    expect(whole.statusCode, said(whole)).toBe(200);
    expect(whole.json()).toMatchObject({ refundState: 'refunded' });
    const [made] = world.server.refunds.filter((r) => r.payment_intent === payment.providerPaymentId);
    expect(made?.status).toBe('succeeded');
    expect([keptBy(sellerAccount), keptBy(driverAccount)]).toEqual([0, 0]);
    await expectReconcileClean();
    await expectProviderReconcileClean();

    // The card was closed: Stripe fails the refund and returns the money to the platform's balance
    // (a refund_failure), and sends refund.failed and charge.refund.updated.
    const failed = world.server.failRefund(made?.id ?? '', 'expired_or_canceled_card');
    expect(failed.map((event) => event.type)).toContain('refund.failed');
    await post(...failed);
    // The payout job gives back what the refund took (it may be done at once, or left to the job).
    await retryPayouts(payoutDeps());
    const listed = await as(t, admin, { method: 'GET', url: '/api/admin/refunds' });
    expect(listed.statusCode, said(listed)).toBe(200);
    expect(
      listed.json<{ refunds: RefundNeedingAttention[] }>().refunds.filter((r) => r.paymentId === payment.id),
    ).toMatchObject([{ status: 'failed', failureReason: 'expired_or_canceled_card' }]);
    await expectReconcileClean();
    await expectProviderReconcileClean();
    // What was taken back from the seller and the driver for the refund is theirs again.
    expect([keptBy(sellerAccount), keptBy(driverAccount)]).toEqual([
      cents(s.order.sellerEarnings),
      cents(s.order.driverEarnings),
    ]);

    // The buyer must be paid another way: the whole order can be refunded again.
    const again = await refund(s.order.id);
    expect(again.statusCode, said(again)).toBe(200);
    expect(again.json()).toMatchObject({ refundState: 'refunded' });
    expect(
      world.server.refunds
        .filter((r) => r.payment_intent === payment.providerPaymentId)
        .map((r) => [r.amount, r.status]),
    ).toEqual([
      [cents(s.order.total), 'failed'],
      [cents(s.order.total), 'succeeded'],
    ]);
    expect([keptBy(sellerAccount), keptBy(driverAccount)]).toEqual([0, 0]);
    await expectReconcileClean();
    await expectProviderReconcileClean();
  });
});

describe('a share given back that Stripe refuses', () => {
  it('is tried with a new key after each refusal, refused for good at the fifth, shown to the admin, and sent by the admin once the account is fixed', async () => {
    const s = await orderInTransit(t, {}, { price: '30.00' }, payWithStripe);
    const sellerAccount = await onboard(s.seller.id);
    await onboard(s.driver.id);
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    const payment = await paymentOfOrder(s.order.id);
    expect((await refund(s.order.id)).statusCode).toBe(200);
    const [made] = world.server.refunds.filter((r) => r.payment_intent === payment.providerPaymentId);
    // The seller's account can no longer take transfers, and nobody told the marketplace yet.
    world.connect.restrict(sellerAccount);
    await post(...world.server.failRefund(made?.id ?? '', 'expired_or_canceled_card'));
    const restoreKeys = () =>
      world.server.requests
        .filter((r) => r.path === '/v1/transfers' && (r.idempotencyKey ?? '').startsWith('restore-'))
        .map((r) => r.idempotencyKey);
    // Tried at once, then after each backoff (15 minutes, 1 hour, 4 hours, 16 hours).
    for (const wait of [0, 15, 60, 240, 960]) {
      moveClocks(wait * 60 * 1000 + 1000);
      await retryPayouts(payoutDeps());
    }
    const sellerKeys = restoreKeys().filter((key) => key !== undefined);
    // One key per refusal (Stripe answers a refused key's refusal again for 24 hours); the driver's
    // share went back at once.
    expect(new Set(sellerKeys).size).toBe(sellerKeys.length);
    expect(sellerKeys.length).toBe(6);
    const sellerPayout = (await payoutsOf(t, s.order.id)).seller;
    const shares = await t.database.db
      .select()
      .from(payoutReversals)
      .where(eq(payoutReversals.payoutId, sellerPayout?.id ?? ''));
    expect(shares.map((share) => [share.status, share.refusals])).toEqual([['refused', 5]]);
    // Nothing more is tried by the job.
    moveClocks(48 * HOUR);
    await retryPayouts(payoutDeps());
    expect(restoreKeys().length).toBe(6);
    const listed = (await adminPayouts()).failed.find((p) => p.id === sellerPayout?.id);
    expect(listed).toMatchObject({ refusedShare: s.order.sellerEarnings });
    expect(listed?.lastError).toContain('capabilities');
    await expectReconcileClean();
    await expectProviderReconcileClean();

    // The seller fixes the account at Stripe; the admin sends the share again.
    world.connect.complete(sellerAccount);
    const retried = await as(t, admin, {
      method: 'POST',
      url: `/api/admin/payouts/${sellerPayout?.id ?? ''}/retry`,
    });
    expect(retried.statusCode, said(retried)).toBe(200);
    expect(retried.json()).toMatchObject({ status: 'paid', lastError: null, refusedShare: null });
    expect(keptBy(sellerAccount)).toBe(cents(s.order.sellerEarnings));
    await expectReconcileClean();
    await expectProviderReconcileClean();
  });
});

describe('a cancelled order whose refund failed for good', () => {
  it('is refunded again by an admin: the buyer is paid, nobody earned anything to take back, and the books balance', async () => {
    const { buyer, orders: made, payment } = await onePayment([{ price: '20.00' }]);
    const [order] = made;
    if (!order) throw new Error('no order');
    const cancel = await as(t, buyer, { method: 'POST', url: `/api/orders/${order.id}/cancel` });
    expect(cancel.statusCode, said(cancel)).toBe(200);
    const [made1] = world.server.refunds.filter((r) => r.payment_intent === payment.providerPaymentId);
    expect(made1?.status).toBe('succeeded');
    // The card was closed: the cancellation's refund fails and its money comes back to the platform.
    await post(...world.server.failRefund(made1?.id ?? '', 'expired_or_canceled_card'));
    const shown = await as(t, admin, { method: 'GET', url: `/api/orders/${order.id}` });
    expect(shown.json()).toMatchObject({ status: 'cancelled', refundState: 'none' });
    await expectReconcileClean();
    await expectProviderReconcileClean();

    const again = await refund(order.id);
    expect(again.statusCode, said(again)).toBe(200);
    expect(again.json()).toMatchObject({ status: 'cancelled', refundState: 'refunded' });
    expect(
      world.server.refunds
        .filter((r) => r.payment_intent === payment.providerPaymentId)
        .map((r) => [r.amount, r.status]),
    ).toEqual([
      [cents(order.total), 'failed'],
      [cents(order.total), 'succeeded'],
    ]);
    // Nothing was earned on a cancelled order, so no fee was given back.
    expect((await ledgerOfKind('platform_fee_refund')).filter((e) => e.orderId === order.id)).toEqual([]);
    const twice = await refund(order.id);
    expect(twice.statusCode, said(twice)).toBe(409);
    await expectReconcileClean();
    await expectProviderReconcileClean();
  });
});

describe('a prevented dispute whose refund fails after it was handled', () => {
  /** Stripe's dispute prevention on the whole charge: the dispute and the refund Stripe made, all delivered. */
  async function preventWholeCharge(payment: { providerChargeId: string; providerPaymentId: string }) {
    const prevented = world.disputes.prevent(payment.providerChargeId, { reason: 'fraudulent' });
    await post(...prevented.events);
    const made = world.server.refunds.filter((r) => r.payment_intent === payment.providerPaymentId);
    expect(made.map((r) => [r.status, r.metadata.refundId ?? null])).toEqual([['succeeded', null]]);
    return { dispute: await disputeRow(prevented.dispute.id), stripeRefund: made[0]?.id ?? '' };
  }

  it("gives the payees back what the dispute took, records the money back by Stripe's refund, and lets the admin refund the order again", async () => {
    const s = await orderInTransit(t, {}, { price: '30.00' }, payWithStripe);
    const sellerAccount = await onboard(s.seller.id);
    const driverAccount = await onboard(s.driver.id);
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    const payment = await paymentOfOrder(s.order.id);
    const { dispute, stripeRefund } = await preventWholeCharge(payment);
    expect(dispute.outcomeHandledAt, 'the prevented dispute is handled').not.toBeNull();
    expect([keptBy(sellerAccount), keptBy(driverAccount)]).toEqual([0, 0]);
    await expectReconcileClean();
    await expectProviderReconcileClean();

    // The cardholder's card was closed: Stripe's refund fails and its money comes back to the
    // platform's balance (refund.failed, charge.refund.updated).
    const failed = world.server.failRefund(stripeRefund, 'expired_or_canceled_card');
    await post(...failed);
    await retryPayouts(payoutDeps());
    expect([keptBy(sellerAccount), keptBy(driverAccount)]).toEqual([
      cents(s.order.sellerEarnings),
      cents(s.order.driverEarnings),
    ]);
    expect(
      (await ledgerOfKind('dispute_reinstated')).map((e) => [e.amount, e.providerReference, e.disputeId]),
    ).toEqual([[payment.amount, stripeRefund, dispute.id]]);
    await expectReconcileClean();
    await expectProviderReconcileClean();
    // Delivered again, the event changes nothing.
    await post(...failed);
    expect(await ledgerOfKind('dispute_reinstated')).toHaveLength(1);

    // The buyer must be paid another way: the whole order can be refunded again, from the payees.
    const again = await refund(s.order.id);
    expect(again.statusCode, said(again)).toBe(200);
    expect(again.json()).toMatchObject({ refundState: 'refunded' });
    expect([keptBy(sellerAccount), keptBy(driverAccount)]).toEqual([0, 0]);
    await expectReconcileClean();
    await expectProviderReconcileClean();
  });

  it('on an order cancelled after the dispute, leaves the whole order for the admin to refund, and the books balance', async () => {
    const { buyer, orders: made, payment } = await onePayment([{ price: '20.00' }]);
    const [order] = made;
    if (!order) throw new Error('no order');
    const { stripeRefund } = await preventWholeCharge(payment);
    // The dispute took the whole order: its cancellation has nothing left to refund.
    const cancel = await as(t, buyer, { method: 'POST', url: `/api/orders/${order.id}/cancel` });
    expect(cancel.statusCode, said(cancel)).toBe(200);
    expect(world.server.refunds.filter((r) => r.payment_intent === payment.providerPaymentId)).toHaveLength(
      1,
    );
    const taken = await refund(order.id);
    expect(taken.statusCode, said(taken)).toBe(409);

    await post(...world.server.failRefund(stripeRefund, 'expired_or_canceled_card'));
    await expectReconcileClean();
    await expectProviderReconcileClean();
    const again = await refund(order.id);
    expect(again.statusCode, said(again)).toBe(200);
    expect(again.json()).toMatchObject({ status: 'cancelled', refundState: 'refunded' });
    expect(
      world.server.refunds
        .filter((r) => r.payment_intent === payment.providerPaymentId)
        .map((r) => [r.amount, r.status]),
    ).toEqual([
      [cents(order.total), 'failed'],
      [cents(order.total), 'succeeded'],
    ]);
    await expectReconcileClean();
    await expectProviderReconcileClean();
  });
});

describe('a refund by items', () => {
  async function deliveredWithItem(price: string, quantity: number) {
    const { orders: made } = await onePayment([{ price, quantity }]);
    const [order] = made;
    if (!order) throw new Error('no order');
    await deliver(order, { onboardDriver: false });
    const items = await as(t, admin, { method: 'GET', url: `/api/orders/${order.id}/items` });
    expect(items.statusCode, said(items)).toBe(200);
    const [item] = items.json<Array<{ id: string; productName: string; quantity: number }>>();
    if (!item) throw new Error('no item');
    expect(item.quantity).toBe(quantity);
    return { order, item };
  }
  const byItems = (orderId: string, orderItemId: string, quantity: number) =>
    refund(orderId, { items: [{ orderItemId, quantity }] });

  it('refunds the one unit bought once, and refuses it the second time', async () => {
    // $5.00 + $10.00 delivery: after the item is refunded, $10.00 of the order is still left.
    const { order, item } = await deliveredWithItem('5.00', 1);
    const first = await byItems(order.id, item.id, 1);
    expect(first.statusCode, said(first)).toBe(200);
    const second = await byItems(order.id, item.id, 1);
    expect(second.statusCode, said(second)).toBe(409);
    expect(second.json()).toMatchObject({ message: refundItemsLeftMessage(item.productName, 0) });
    await expectReconcileClean();
    await expectProviderReconcileClean();
  });

  it('refunds 2 of 3 units, refuses 2 more, and refunds the last one', async () => {
    // 3 × $4.00 + $10.00 delivery = $22.00: refunding 2 units twice would fit in what is left.
    const { order, item } = await deliveredWithItem('4.00', 3);
    const two = await byItems(order.id, item.id, 2);
    expect(two.statusCode, said(two)).toBe(200);
    const twoMore = await byItems(order.id, item.id, 2);
    expect(twoMore.statusCode, said(twoMore)).toBe(409);
    expect(twoMore.json()).toMatchObject({ message: refundItemsLeftMessage(item.productName, 1) });
    const last = await byItems(order.id, item.id, 1);
    expect(last.statusCode, said(last)).toBe(200);
    expect(last.json()).toMatchObject({ refundedAmount: '12.00' });
    await expectReconcileClean();
    await expectProviderReconcileClean();
  });
});
