import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { and, eq } from 'drizzle-orm';
import { disputes, ledgerEntries, orders } from '../../db/schema';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import type { FakeStripeEvent } from '../../testing/stripe-server';
import { startStripeWorld, type StripeWorld } from '../../testing/stripe-world';
import {
  confirm,
  createAddress,
  createProduct,
  paymentRow,
  startPayment,
  type OrderJson,
  type PaymentJson,
} from '../../testing/commerce';
import { makeAccountReady, moveOrder, orderInTransit, payoutsOf } from '../../testing/payout-scenes';
import { StripePayoutTransfers } from '../../adapters/payouts/stripe-payout-transfers';
import { reconcile } from '../ledger/reconcile';
import { retryPayouts } from '../payouts/settle-payouts';

/**
 * Disputes with Stripe as the provider (docs/decisions/0018-money-against-stripe.md, Disputes),
 * against the faithful local Stripe (`startStripeWorld`): the cardholder disputes a real charge of
 * that server, Stripe withdraws the amount and the $15.00 dispute fee from the platform's balance
 * (an `adjustment` balance transaction: a negative amount, the fee in `fee`/`fee_details`), the
 * issuer decides (won: the amount reinstated, the fee kept; lost: nothing back), and the
 * charge.dispute.* events Stripe sends are posted signed to the app's webhook, which reads the
 * dispute again from `GET /v1/disputes/:id`.
 */
const webhookSecret = 'whsec_disputestest';
let t: TestApp;
let world: StripeWorld;
const clock = new Date('2026-11-20T12:00:00.000Z');
const log = { info: () => {}, warn: () => {}, error: () => {} };
const signer = new Stripe('sk_test_signer');

async function startApp(stripeWorld: StripeWorld) {
  return createTestApp({
    payoutRetryMs: 0,
    now: () => clock,
    env: {
      ...stripeWorld.env,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_disputes',
      STRIPE_WEBHOOK_SECRET: webhookSecret,
    },
  });
}

beforeAll(async () => {
  world = await startStripeWorld();
  t = await startApp(world);
});
afterAll(async () => {
  await t.close();
  await world.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

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

async function paymentOfOrder(orderId: string) {
  const [order] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
  const payment = await paymentRow(t, order?.paymentId ?? '');
  if (!payment?.providerChargeId) throw new Error('no charge');
  return { ...payment, providerChargeId: payment.providerChargeId };
}

const cents = (money: string | undefined | null) => Math.round(Number(money) * 100);

/** The cardholder disputes the payment's charge at Stripe: the dispute and the events Stripe sends. */
function openDispute(
  payment: { providerChargeId: string },
  options?: Parameters<StripeWorld['disputes']['open']>[1],
) {
  const opened = world.disputes.open(payment.providerChargeId, { reason: 'fraudulent', ...options });
  const [created, withdrawn] = opened.events;
  if (created?.type !== 'charge.dispute.created' || withdrawn?.type !== 'charge.dispute.funds_withdrawn')
    throw new Error(`unexpected events ${opened.events.map((e) => e.type).join(', ')}`);
  return { dispute: opened.dispute, created, withdrawn };
}

/** The event of `type` among those Stripe sent. */
function eventOf(events: FakeStripeEvent[], type: string): FakeStripeEvent {
  const found = events.find((event) => event.type === type);
  if (!found) throw new Error(`no ${type} among ${events.map((e) => e.type).join(', ')}`);
  return found;
}

/** Posts an event to the webhook as Stripe sends it, signed. */
function sendEvent(event: FakeStripeEvent) {
  const payload = JSON.stringify(event);
  const signature = signer.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
  return t.app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });
}

async function post(...events: FakeStripeEvent[]) {
  for (const event of events) {
    const response = await sendEvent(event);
    expect(response.statusCode, response.body).toBe(200);
  }
}

async function orderAs(user: TestUser, orderId: string) {
  const response = await as(t, user, { method: 'GET', url: `/api/orders/${orderId}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<OrderJson & { dispute: Record<string, unknown> | null }>();
}

async function disputeEntries(paymentId: string) {
  const rows = await t.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.paymentId, paymentId));
  return rows
    .filter((row) => row.kind.startsWith('dispute'))
    .map((row) => ({ kind: row.kind, amount: row.amount }))
    .sort((a, b) => a.kind.localeCompare(b.kind) || a.amount.localeCompare(b.amount));
}

/** The ledger's total of one kind for a payment (its own entries and its orders'), in cents. */
async function ledgerTotal(paymentId: string, kind: string) {
  const orderIds = (
    await t.database.db.select({ id: orders.id }).from(orders).where(eq(orders.paymentId, paymentId))
  ).map((o) => o.id);
  const rows = await t.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.kind, kind));
  return rows
    .filter((row) => row.paymentId === paymentId || (row.orderId !== null && orderIds.includes(row.orderId)))
    .reduce((sum, row) => sum + cents(row.amount), 0);
}

async function adminDisputes(admin: TestUser) {
  const response = await as(t, admin, { method: 'GET', url: '/api/admin/disputes' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ disputes: Array<Record<string, unknown>> }>().disputes;
}

/** The platform balance the admin sees on GET /api/admin/payouts, in cents. */
async function platformBalance(admin: TestUser) {
  const response = await as(t, admin, { method: 'GET', url: '/api/admin/payouts' });
  expect(response.statusCode, response.body).toBe(200);
  return cents(response.json<{ platformBalance: string }>().platformBalance);
}

const transfersOfOrder = (orderId: string) =>
  world.transfers.transfers.filter((tr) => tr.metadata.orderId === orderId);

/** Stripe's processing fee on the charge: the fee of its `charge` balance transaction. */
function stripeFeeOf(chargeId: string) {
  const txn = world.balances.find(world.server.charges.get(chargeId)?.balance_transaction ?? '');
  if (!txn) throw new Error(`no balance transaction for ${chargeId}`);
  return txn.transaction.fee;
}

describe('a dispute on a paid-out order', () => {
  it('records the amount and fee out, shows Disputed to every role, lists it for the admin, and puts the amount back when won; the platform balance is lower by the $15.00 fee', async () => {
    const admin = await signedInAs(t, 'admin');
    const balanceBefore = await platformBalance(admin);
    const s = await orderInTransit(t, {}, {}, payWithStripe);
    await onboard(s.seller.id);
    await onboard(s.driver.id);
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    expect(transfersOfOrder(s.order.id)).toHaveLength(2);
    const payment = await paymentOfOrder(s.order.id);
    // The app recorded Stripe's processing fee on the charge as provider_fee.
    const providerFee = await ledgerTotal(payment.id, 'provider_fee');
    expect(providerFee).toBe(stripeFeeOf(payment.providerChargeId));
    expect(providerFee).toBeGreaterThan(0);
    const platformFee = await ledgerTotal(payment.id, 'platform_fee');
    const beforeDispute = await platformBalance(admin);
    expect(beforeDispute).toBe(balanceBefore + platformFee - providerFee);

    const { dispute, created, withdrawn } = openDispute(payment, { evidenceDueInDays: 7 });
    expect(dispute.balance_transactions).toMatchObject([
      { type: 'adjustment', amount: -cents(payment.amount), fee: 1500, net: -cents(payment.amount) - 1500 },
    ]);
    await post(created);
    const dueBy = new Date(dispute.evidence_details.due_by * 1000).toISOString();
    for (const viewer of [s.buyer, s.seller, admin])
      expect((await orderAs(viewer, s.order.id)).dispute).toEqual({
        status: 'needs_response',
        amount: payment.amount,
        evidenceDueBy: dueBy,
      });
    // The driver never sees prices: the status alone.
    expect((await orderAs(s.driver, s.order.id)).dispute).toEqual({ status: 'needs_response' });
    // The dispute read again already shows Stripe's withdrawal: the amount and the fee, once.
    await post(withdrawn);
    expect(await disputeEntries(payment.id)).toEqual([
      { kind: 'dispute', amount: payment.amount },
      { kind: 'dispute_fee', amount: '15.00' },
    ]);
    const listed = (await adminDisputes(admin)).find((row) => row.providerDisputeId === dispute.id);
    expect(listed).toMatchObject({
      orderNumbers: [s.order.orderNumber],
      amount: payment.amount,
      fee: '15.00',
      reason: 'fraudulent',
      status: 'needs_response',
      isOpen: true,
      evidenceDueBy: dueBy,
      dashboardUrl: `https://dashboard.stripe.com/test/disputes/${dispute.id}`,
    });
    expect((await reconcile(t.database.db)).discrepancies).toEqual([]);

    // The platform answers; the issuer decides for it: Stripe gives the amount back and keeps the fee.
    await post(...world.disputes.submitEvidence(dispute.id, { uncategorized_text: 'Delivered.' }).events);
    expect((await orderAs(s.buyer, s.order.id)).dispute).toMatchObject({ status: 'under_review' });
    const won = world.disputes.win(dispute.id);
    await post(
      eventOf(won.events, 'charge.dispute.funds_reinstated'),
      eventOf(won.events, 'charge.dispute.closed'),
    );
    expect(await disputeEntries(payment.id)).toEqual([
      { kind: 'dispute', amount: payment.amount },
      { kind: 'dispute_fee', amount: '15.00' },
      { kind: 'dispute_reinstated', amount: payment.amount },
    ]);
    expect((await orderAs(s.buyer, s.order.id)).dispute).toMatchObject({ status: 'won' });
    const closed = (await adminDisputes(admin)).find((row) => row.providerDisputeId === dispute.id);
    expect(closed).toMatchObject({ status: 'won', isOpen: false, fee: '15.00' });
    expect((await reconcile(t.database.db)).discrepancies).toEqual([]);
    // What the admin sees is what Stripe kept: lower by exactly the dispute fee.
    expect(await platformBalance(admin)).toBe(beforeDispute - 1500);
    expect(await platformBalance(admin)).toBe(balanceBefore + platformFee - providerFee - 1500);
    // The sellers' and drivers' transfers were never touched.
    expect(transfersOfOrder(s.order.id).map((tr) => tr.amount_reversed)).toEqual([0, 0]);
  });

  it('writes once when an event is delivered twice, even at the same time, and a stale copy changes nothing', async () => {
    const s = await orderInTransit(t, {}, {}, payWithStripe);
    const payment = await paymentOfOrder(s.order.id);
    const { created, withdrawn } = openDispute(payment);
    const deliveries = await Promise.all([sendEvent(withdrawn), sendEvent(withdrawn)]);
    expect(deliveries.map((r) => r.statusCode)).toEqual([200, 200]);
    await post(withdrawn);
    // A late charge.dispute.created (a copy of the dispute before the withdrawal) changes nothing either.
    await post(created);
    expect(await disputeEntries(payment.id)).toEqual([
      { kind: 'dispute', amount: payment.amount },
      { kind: 'dispute_fee', amount: '15.00' },
    ]);
    const rows = await t.database.db.select().from(disputes).where(eq(disputes.paymentId, payment.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'needs_response', fee: '15.00' });
  });

  it('acknowledges a dispute on a charge it does not know, and one Stripe does not know', async () => {
    // A charge of the same Stripe account the app never made (another integration's).
    const intent = await world.stripe.paymentIntents.create({ amount: 1_200, currency: 'usd' });
    const charge = world.server.succeed(intent.id).latest_charge ?? '';
    const stranger = world.disputes.open(charge);
    await post(...stranger.events);
    await post(world.server.event('charge.dispute.created', { id: 'du_nobody', object: 'dispute' }));
    const rows = await t.database.db
      .select()
      .from(disputes)
      .where(eq(disputes.providerDisputeId, stranger.dispute.id));
    expect(rows).toEqual([]);
    const nobody = await t.database.db
      .select()
      .from(disputes)
      .where(eq(disputes.providerDisputeId, 'du_nobody'));
    expect(nobody).toEqual([]);
  });
});

describe('fees Stripe gives back', () => {
  // A second local Stripe whose disputes charge the countered fee (taken when evidence is submitted,
  // given back when the dispute is won) and the older rule that returned the dispute fee on a win.
  let main: { t: TestApp; world: StripeWorld };
  beforeAll(async () => {
    main = { t, world };
    world = await startStripeWorld({ disputes: { counterFee: 1500, returnDisputeFeeOnWin: true } });
    t = await startApp(world);
  });
  afterAll(async () => {
    await t.close();
    await world.close();
    ({ t, world } = main);
  });

  it('writes every fee Stripe takes and every fee it gives back, and reconcile is clean', async () => {
    const admin = await signedInAs(t, 'admin');
    const s = await orderInTransit(t, {}, {}, payWithStripe);
    const payment = await paymentOfOrder(s.order.id);
    const before = await platformBalance(admin);
    const { dispute, created, withdrawn } = openDispute(payment);
    await post(created, withdrawn);
    await post(...world.disputes.submitEvidence(dispute.id, { uncategorized_text: 'Delivered.' }).events);
    const won = world.disputes.win(dispute.id);
    await post(...won.events);
    expect(await disputeEntries(payment.id)).toEqual([
      { kind: 'dispute', amount: payment.amount },
      { kind: 'dispute_fee', amount: '15.00' },
      { kind: 'dispute_fee', amount: '15.00' },
      { kind: 'dispute_fee_reinstated', amount: '30.00' },
      { kind: 'dispute_reinstated', amount: payment.amount },
    ]);
    expect((await reconcile(t.database.db)).discrepancies).toEqual([]);
    const listed = (await adminDisputes(admin)).find((row) => row.providerDisputeId === dispute.id);
    expect(listed).toMatchObject({ status: 'won', fee: '30.00' });
    // Stripe took $15.00 + $15.00 and gave both back: the dispute cost the platform nothing.
    expect(await platformBalance(admin)).toBe(before);
  });
});

describe('payouts held by a dispute', () => {
  it('makes no transfer while the dispute is open, and makes it once the dispute is won', async () => {
    const s = await orderInTransit(t, {}, {}, payWithStripe);
    await onboard(s.seller.id);
    await onboard(s.driver.id);
    const payment = await paymentOfOrder(s.order.id);
    const { dispute, created, withdrawn } = openDispute(payment);
    await post(created);
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    expect(transfersOfOrder(s.order.id)).toHaveLength(0);
    if (!t.config.stripe) throw new Error('Stripe is not configured');
    const deps = {
      db: t.database.db,
      payouts: new StripePayoutTransfers(t.config.stripe),
      now: () => clock,
      log,
      siteUrl: t.config.siteUrl,
    };
    await retryPayouts(deps);
    expect(transfersOfOrder(s.order.id)).toHaveLength(0);
    const held = await payoutsOf(t, s.order.id);
    expect([held.seller?.status, held.driver?.status]).toEqual(['pending', 'pending']);
    expect([held.seller?.attempts, held.driver?.attempts]).toEqual([0, 0]);
    expect((await reconcile(t.database.db)).discrepancies).toEqual([]);

    await post(withdrawn);
    expect(transfersOfOrder(s.order.id)).toHaveLength(0);
    expect((await reconcile(t.database.db)).discrepancies).toEqual([]);
    await post(eventOf(world.disputes.win(dispute.id).events, 'charge.dispute.closed'));
    expect(transfersOfOrder(s.order.id)).toHaveLength(2);
    const paid = await payoutsOf(t, s.order.id);
    expect([paid.seller?.status, paid.driver?.status]).toEqual(['paid', 'paid']);
    expect((await reconcile(t.database.db)).discrepancies).toEqual([]);
  });
});

describe('a payment of several orders', () => {
  it('shows the dispute on every order of the payment', async () => {
    const buyer = await signedInAs(t, 'buyer');
    const address = await createAddress(t, buyer.id);
    const sellers = [await signedInAs(t, 'seller'), await signedInAs(t, 'seller')];
    const items = [];
    for (const seller of sellers) {
      await createAddress(t, seller.id);
      const product = await createProduct(t, seller.id, { offerPickup: true });
      items.push({ productId: product.id, quantity: 1 });
    }
    const made = await payWithStripe(buyer, { items, isPickup: false, deliveryAddressId: address.id });
    expect(made).toHaveLength(2);
    const payment = await paymentOfOrder(made[0]?.id ?? '');
    await post(openDispute(payment).created);
    const listed = await as(t, buyer, { method: 'GET', url: '/api/orders?as=buyer' });
    const shown = listed.json<Array<OrderJson & { dispute: { status: string } | null }>>();
    expect(shown.filter((o) => made.some((m) => m.id === o.id)).map((o) => o.dispute?.status)).toEqual([
      'needs_response',
      'needs_response',
    ]);
    for (const [index, seller] of sellers.entries())
      expect((await orderAs(seller, made[index]?.id ?? '')).dispute).toMatchObject({
        status: 'needs_response',
        amount: payment.amount,
      });
  });
});

describe('a lost dispute', () => {
  it('takes back the paid-out shares of the seller and the driver as a refund would, and reconcile is clean', async () => {
    const admin = await signedInAs(t, 'admin');
    const balanceBefore = await platformBalance(admin);
    const s = await orderInTransit(t, {}, {}, payWithStripe);
    await onboard(s.seller.id);
    await onboard(s.driver.id);
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    const sent = transfersOfOrder(s.order.id);
    expect(sent).toHaveLength(2);
    const payment = await paymentOfOrder(s.order.id);
    const providerFee = await ledgerTotal(payment.id, 'provider_fee');
    const { dispute, created, withdrawn } = openDispute(payment);
    await post(created, withdrawn);
    const lost = world.disputes.lose(dispute.id);
    expect(lost.events.map((e) => e.type)).toEqual(['charge.dispute.closed']);
    await post(...lost.events, ...lost.events);

    for (const viewer of [s.buyer, s.seller, admin])
      expect((await orderAs(viewer, s.order.id)).dispute).toMatchObject({ status: 'lost' });
    expect((await orderAs(s.driver, s.order.id)).dispute).toEqual({ status: 'lost' });
    expect(await disputeEntries(payment.id)).toEqual([
      { kind: 'dispute', amount: payment.amount },
      { kind: 'dispute_fee', amount: '15.00' },
    ]);
    const [row] = await t.database.db
      .select()
      .from(disputes)
      .where(eq(disputes.providerDisputeId, dispute.id));
    expect(row).toMatchObject({ status: 'lost' });
    expect(row?.outcomeHandledAt).not.toBeNull();
    // Both transfers reversed in full at Stripe (their accounts still held the funds), once.
    expect(transfersOfOrder(s.order.id).map((tr) => tr.amount_reversed)).toEqual(sent.map((tr) => tr.amount));
    const payouts = await payoutsOf(t, s.order.id);
    expect([payouts.seller?.status, payouts.driver?.status]).toEqual(['reversed', 'reversed']);
    const reversed = await t.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.orderId, s.order.id), eq(ledgerEntries.kind, 'reversal')));
    expect(reversed.reduce((sum, e) => sum + cents(e.amount), 0)).toBe(
      sent.reduce((sum, tr) => sum + tr.amount, 0),
    );
    expect((await reconcile(t.database.db)).discrepancies).toEqual([]);
    // The platform gave its fee back with the order's money and bore Stripe's fees.
    expect(await platformBalance(admin)).toBe(balanceBefore - providerFee - 1500);
  });

  it('shows the orders Lost and cancels the payouts not sent yet when the order is delivered during the dispute', async () => {
    const s = await orderInTransit(t, {}, {}, payWithStripe);
    await onboard(s.seller.id);
    await onboard(s.driver.id);
    const payment = await paymentOfOrder(s.order.id);
    const { dispute, created, withdrawn } = openDispute(payment);
    await post(created, withdrawn);
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    const lost = world.disputes.lose(dispute.id);
    await post(...lost.events, ...lost.events);
    for (const viewer of [s.buyer, s.seller])
      expect((await orderAs(viewer, s.order.id)).dispute).toMatchObject({ status: 'lost' });
    expect((await orderAs(s.driver, s.order.id)).dispute).toEqual({ status: 'lost' });
    expect(await disputeEntries(payment.id)).toEqual([
      { kind: 'dispute', amount: payment.amount },
      { kind: 'dispute_fee', amount: '15.00' },
    ]);
    // The lost amount is taken back from the seller and the driver as a refund would: their unsent
    // payouts are cancelled, the platform's fee is given back, and reconcile balances.
    const [row] = await t.database.db
      .select()
      .from(disputes)
      .where(eq(disputes.providerDisputeId, dispute.id));
    expect(row).toMatchObject({ status: 'lost' });
    expect(row?.outcomeHandledAt).not.toBeNull();
    expect(row?.closedAt).not.toBeNull();
    expect(transfersOfOrder(s.order.id)).toHaveLength(0);
    const payouts = await payoutsOf(t, s.order.id);
    expect([payouts.seller?.status, payouts.driver?.status]).toEqual(['cancelled', 'cancelled']);
    expect((await reconcile(t.database.db)).discrepancies).toEqual([]);
  });

  it("handles a prevented dispute at once as a lost one: Stripe's refund is what it took, and the order gives it back when it finishes", async () => {
    const s = await orderInTransit(t, {}, {}, payWithStripe);
    await onboard(s.seller.id);
    await onboard(s.driver.id);
    const payment = await paymentOfOrder(s.order.id);
    const { dispute } = openDispute(payment);
    await post(preventDispute(dispute.id));
    // Handled at once (docs/decisions/0022-money-in-combinations.md): the refund Stripe made to the
    // cardholder is recorded as the money the dispute took, by its id.
    const [row] = await t.database.db
      .select()
      .from(disputes)
      .where(eq(disputes.providerDisputeId, dispute.id));
    expect(row).toMatchObject({ status: 'prevented' });
    expect(row?.outcomeHandledAt).not.toBeNull();
    const stripeRefund = world.server.refunds.find((r) => r.payment_intent === payment.providerPaymentId);
    const taken = (
      await t.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.paymentId, payment.id))
    ).filter((e) => e.kind === 'dispute');
    expect(taken.map((e) => [e.amount, e.providerReference])).toEqual([[payment.amount, stripeRefund?.id]]);
    expect((await reconcile(t.database.db)).discrepancies).toEqual([]);
    // The order, delivered after, gives the whole of it back: nothing goes out to its payees.
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    expect(transfersOfOrder(s.order.id)).toHaveLength(0);
    const payouts = await payoutsOf(t, s.order.id);
    expect([payouts.seller?.status, payouts.driver?.status]).toEqual(['cancelled', 'cancelled']);
    expect((await reconcile(t.database.db)).discrepancies).toEqual([]);
  });
});

/**
 * Stripe's dispute prevention resolves the dispute (nothing of which was delivered yet) as it comes
 * in: status `prevented`, nothing withdrawn and no dispute fee, the buyer refunded by Stripe
 * (`world.disputes.prevent`); answers the `charge.dispute.closed` Stripe sends.
 */
function preventDispute(id: string): FakeStripeEvent {
  return eventOf(world.disputes.prevent(id).events, 'charge.dispute.closed');
}

describe('GET /api/admin/disputes', () => {
  it('is for admins only', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/disputes' })).statusCode).toBe(401);
    for (const role of ['buyer', 'seller'] as const) {
      const user = await signedInAs(t, role);
      expect((await as(t, user, { method: 'GET', url: '/api/admin/disputes' })).statusCode).toBe(403);
    }
  });

  it('lists open disputes first, the soonest evidence deadline first', async () => {
    const admin = await signedInAs(t, 'admin');
    const ids: string[] = [];
    for (const daysLeft of [9, 3]) {
      const s = await orderInTransit(t, {}, {}, payWithStripe);
      const payment = await paymentOfOrder(s.order.id);
      const { dispute, created } = openDispute(payment, { evidenceDueInDays: daysLeft });
      await post(created);
      ids.push(dispute.id);
    }
    const listed = await adminDisputes(admin);
    const open = listed.filter((row) => row.isOpen);
    expect(listed.slice(0, open.length)).toEqual(open);
    const positions = ids.map((id) => open.findIndex((row) => row.providerDisputeId === id));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect(positions[1]).toBeLessThan(positions[0] ?? -1);
  });
});
