import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { eq } from 'drizzle-orm';
import { disputes, ledgerEntries, orders } from '../../db/schema';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import {
  StripeHttpError,
  startFakeStripe,
  type FakeStripeRoute,
  type FakeStripeServer,
} from '../../testing/stripe-server';
import { createFakeConnectAccounts, type FakeConnectAccounts } from '../../testing/stripe-connect-accounts';
import {
  createFakeConnectTransfers,
  type FakeConnectTransfers,
} from '../../testing/stripe-connect-transfers';
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
import { splitLostAmount } from './handle-lost-dispute';

/**
 * Disputes with Stripe as the provider (docs/decisions/0018-money-against-stripe.md, Disputes): the
 * charge.dispute.* events posted signed to the webhook, the dispute read again from the local
 * Stripe server. `GET /v1/disputes/:id` is a minimal route of this file; the dispute objects follow
 * Stripe's Dispute object (amount, charge, payment_intent, reason, status, evidence_details.due_by,
 * balance_transactions with the withdrawal and the reinstatement).
 */
const webhookSecret = 'whsec_disputestest';
let t: TestApp;
let fake: FakeStripeServer;
let connect: FakeConnectAccounts;
let transfers: FakeConnectTransfers;
const clock = new Date('2026-11-20T12:00:00.000Z');
const log = { info: () => {}, warn: () => {}, error: () => {} };
const signer = new Stripe('sk_test_signer');

interface FakeBalanceTransaction {
  id: string;
  object: 'balance_transaction';
  amount: number;
  fee: number;
  net: number;
  type: 'adjustment';
  description: string;
  source: string;
}

interface FakeDispute {
  id: string;
  object: 'dispute';
  amount: number;
  currency: string;
  charge: string;
  payment_intent: string | null;
  reason: string;
  status: string;
  evidence_details: {
    due_by: number | null;
    has_evidence: boolean;
    past_due: boolean;
    submission_count: number;
  };
  balance_transactions: FakeBalanceTransaction[];
  is_charge_refundable: boolean;
  created: number;
  livemode: false;
  metadata: Record<string, string>;
}

const stripeDisputes = new Map<string, FakeDispute>();

/** GET /v1/disputes/:id, as Stripe answers it (404 resource_missing for an unknown id). */
const disputeRoute: FakeStripeRoute = (req) => {
  const match = /^\/v1\/disputes\/([^/]+)$/.exec(req.path);
  if (!match || req.method !== 'GET') return undefined;
  const id = decodeURIComponent(match[1] ?? '');
  const dispute = stripeDisputes.get(id);
  if (!dispute)
    throw new StripeHttpError(
      404,
      'invalid_request_error',
      `No such dispute: '${id}'`,
      'resource_missing',
      'id',
    );
  return { body: dispute };
};

beforeAll(async () => {
  connect = createFakeConnectAccounts();
  transfers = createFakeConnectTransfers();
  fake = await startFakeStripe({ routes: [connect.route, transfers.route, disputeRoute] });
  transfers.bind({ accounts: connect.accounts, charges: fake.charges });
  t = await createTestApp({
    payoutRetryMs: 0,
    now: () => clock,
    env: {
      STRIPE_SECRET_KEY: fake.secretKey,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_disputes',
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_BASE: fake.url,
    },
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
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
  fake.succeed(row?.providerPaymentId ?? '');
  const confirmed = await confirm(t, buyer, paymentId, {});
  if (confirmed.statusCode !== 200)
    throw new Error(`confirm failed: ${confirmed.statusCode} ${confirmed.body}`);
  return confirmed.json<{ orders: OrderJson[] }>().orders;
}

/** A connected account at Stripe that finished onboarding, recorded as ready for the user. */
async function onboard(userId: string): Promise<string> {
  const stripe = new Stripe(fake.secretKey, {
    host: '127.0.0.1',
    port: new URL(fake.url).port,
    protocol: 'http',
  });
  const account = await stripe.accounts.create({
    type: 'express',
    capabilities: { transfers: { requested: true } },
  });
  connect.complete(account.id);
  return makeAccountReady(t, userId, account.id);
}

async function paymentOfOrder(orderId: string) {
  const [order] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
  const payment = await paymentRow(t, order?.paymentId ?? '');
  if (!payment?.providerChargeId) throw new Error('no charge');
  return payment;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const cents = (money: string | undefined) => Math.round(Number(money) * 100);
let disputeCounter = 0;

/** Stripe opens a dispute on the charge (needs_response, evidence due in a week). */
function openDispute(charge: {
  providerChargeId: string | null;
  providerPaymentId: string | null;
  amount: string;
}) {
  disputeCounter += 1;
  const dispute: FakeDispute = {
    id: `du_test${disputeCounter}${Date.now()}`,
    object: 'dispute',
    amount: cents(charge.amount),
    currency: 'usd',
    charge: charge.providerChargeId ?? '',
    payment_intent: charge.providerPaymentId,
    reason: 'fraudulent',
    status: 'needs_response',
    evidence_details: {
      due_by: seconds(new Date(clock.getTime() + 7 * 24 * 60 * 60 * 1000)),
      has_evidence: false,
      past_due: false,
      submission_count: 0,
    },
    balance_transactions: [],
    is_charge_refundable: false,
    created: seconds(clock),
    livemode: false,
    metadata: {},
  };
  stripeDisputes.set(dispute.id, dispute);
  return dispute;
}

/** Stripe withdraws the disputed amount and its $15.00 dispute fee from the platform's balance. */
function withdrawFunds(dispute: FakeDispute, fee = 1500) {
  dispute.balance_transactions.push({
    id: `txn_w_${dispute.id}`,
    object: 'balance_transaction',
    amount: -dispute.amount,
    fee,
    net: -dispute.amount - fee,
    type: 'adjustment',
    description: `Chargeback withdrawal for ${dispute.charge}`,
    source: dispute.id,
  });
}

/** A won dispute: the amount comes back, and the fee given back shows as a negative fee. */
function win(dispute: FakeDispute, feeBack = 0) {
  dispute.status = 'won';
  dispute.is_charge_refundable = false;
  dispute.balance_transactions.push({
    id: `txn_r_${dispute.id}`,
    object: 'balance_transaction',
    amount: dispute.amount,
    fee: -feeBack,
    net: dispute.amount + feeBack,
    type: 'adjustment',
    description: `Chargeback reversal for ${dispute.charge}`,
    source: dispute.id,
  });
}

/**
 * Posts an event as Stripe sends it, signed. The object carried is a stale copy on purpose: the
 * app must read the dispute again.
 */
function sendEvent(type: string, dispute: FakeDispute | { id: string; object: 'dispute' }) {
  const payload = JSON.stringify({
    id: `evt_${type}_${dispute.id}`,
    object: 'event',
    type,
    data: { object: { id: dispute.id, object: 'dispute', status: 'needs_response' } },
    livemode: false,
  });
  const signature = signer.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
  return t.app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });
}

async function post(type: string, dispute: FakeDispute | { id: string; object: 'dispute' }) {
  const response = await sendEvent(type, dispute);
  expect(response.statusCode, response.body).toBe(200);
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
    .sort((a, b) => a.kind.localeCompare(b.kind));
}

async function adminDisputes(admin: TestUser) {
  const response = await as(t, admin, { method: 'GET', url: '/api/admin/disputes' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ disputes: Array<Record<string, unknown>> }>().disputes;
}

const transfersOfOrder = (orderId: string) =>
  transfers.transfers.filter((tr) => tr.metadata.orderId === orderId);

describe('a dispute on a paid-out order', () => {
  it('records the amount and fee out, shows Disputed to every role, lists it for the admin, and puts it back when won', async () => {
    const s = await orderInTransit(t, {}, {}, payWithStripe);
    await onboard(s.seller.id);
    await onboard(s.driver.id);
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    expect(transfersOfOrder(s.order.id)).toHaveLength(2);
    const payment = await paymentOfOrder(s.order.id);
    const dispute = openDispute(payment);
    const admin = await signedInAs(t, 'admin');

    await post('charge.dispute.created', dispute);
    const dueBy = new Date((dispute.evidence_details.due_by ?? 0) * 1000).toISOString();
    for (const viewer of [s.buyer, s.seller, admin])
      expect((await orderAs(viewer, s.order.id)).dispute).toEqual({
        status: 'needs_response',
        amount: payment.amount,
        evidenceDueBy: dueBy,
      });
    // The driver never sees prices: the status alone.
    expect((await orderAs(s.driver, s.order.id)).dispute).toEqual({ status: 'needs_response' });
    expect(await disputeEntries(payment.id)).toEqual([]);

    withdrawFunds(dispute);
    await post('charge.dispute.funds_withdrawn', dispute);
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

    // Won: Stripe gives the amount back; since June 2025 it keeps the dispute fee.
    win(dispute);
    await post('charge.dispute.funds_reinstated', dispute);
    await post('charge.dispute.closed', dispute);
    expect(await disputeEntries(payment.id)).toEqual([
      { kind: 'dispute', amount: payment.amount },
      { kind: 'dispute_fee', amount: '15.00' },
      { kind: 'dispute_reinstated', amount: payment.amount },
    ]);
    expect((await orderAs(s.buyer, s.order.id)).dispute).toMatchObject({ status: 'won' });
    const closed = (await adminDisputes(admin)).find((row) => row.providerDisputeId === dispute.id);
    expect(closed).toMatchObject({ status: 'won', isOpen: false });
    expect((await reconcile(t.database.db)).discrepancies).toEqual([]);
  });

  it('writes a fee given back only when Stripe returns it', async () => {
    const s = await orderInTransit(t, {}, {}, payWithStripe);
    const payment = await paymentOfOrder(s.order.id);
    const dispute = openDispute(payment);
    withdrawFunds(dispute, 3000);
    await post('charge.dispute.funds_withdrawn', dispute);
    win(dispute, 1500);
    await post('charge.dispute.closed', dispute);
    expect(await disputeEntries(payment.id)).toEqual([
      { kind: 'dispute', amount: payment.amount },
      { kind: 'dispute_fee', amount: '30.00' },
      { kind: 'dispute_fee_reinstated', amount: '15.00' },
      { kind: 'dispute_reinstated', amount: payment.amount },
    ]);
    expect((await reconcile(t.database.db)).discrepancies).toEqual([]);
  });

  it('writes once when an event is delivered twice, even at the same time', async () => {
    const s = await orderInTransit(t, {}, {}, payWithStripe);
    const payment = await paymentOfOrder(s.order.id);
    const dispute = openDispute(payment);
    withdrawFunds(dispute);
    const deliveries = await Promise.all([
      sendEvent('charge.dispute.funds_withdrawn', dispute),
      sendEvent('charge.dispute.funds_withdrawn', dispute),
    ]);
    expect(deliveries.map((r) => r.statusCode)).toEqual([200, 200]);
    await post('charge.dispute.funds_withdrawn', dispute);
    // A late charge.dispute.created after the withdrawal changes nothing either.
    await post('charge.dispute.created', dispute);
    expect(await disputeEntries(payment.id)).toEqual([
      { kind: 'dispute', amount: payment.amount },
      { kind: 'dispute_fee', amount: '15.00' },
    ]);
    const rows = await t.database.db.select().from(disputes).where(eq(disputes.paymentId, payment.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'needs_response', fee: '15.00' });
  });

  it('acknowledges a dispute on a charge it does not know, and one Stripe does not know', async () => {
    const stranger = openDispute({
      providerChargeId: 'ch_notours',
      providerPaymentId: 'pi_notours',
      amount: '12.00',
    });
    await post('charge.dispute.created', stranger);
    await post('charge.dispute.created', { id: 'du_nobody', object: 'dispute' });
    const rows = await t.database.db
      .select()
      .from(disputes)
      .where(eq(disputes.providerDisputeId, stranger.id));
    expect(rows).toEqual([]);
  });
});

describe('payouts held by a dispute', () => {
  it('makes no transfer while the dispute is open, and makes it once the dispute is won', async () => {
    const s = await orderInTransit(t, {}, {}, payWithStripe);
    await onboard(s.seller.id);
    await onboard(s.driver.id);
    const payment = await paymentOfOrder(s.order.id);
    const dispute = openDispute(payment);
    await post('charge.dispute.created', dispute);
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    expect(transfersOfOrder(s.order.id)).toHaveLength(0);
    if (!t.config.stripe) throw new Error('Stripe is not configured');
    const deps = {
      db: t.database.db,
      payouts: new StripePayoutTransfers(t.config.stripe),
      now: () => clock,
      log,
    };
    await retryPayouts(deps);
    expect(transfersOfOrder(s.order.id)).toHaveLength(0);
    const held = await payoutsOf(t, s.order.id);
    expect([held.seller?.status, held.driver?.status]).toEqual(['pending', 'pending']);
    expect([held.seller?.attempts, held.driver?.attempts]).toEqual([0, 0]);
    expect((await reconcile(t.database.db)).discrepancies).toEqual([]);

    withdrawFunds(dispute);
    await post('charge.dispute.funds_withdrawn', dispute);
    expect(transfersOfOrder(s.order.id)).toHaveLength(0);
    expect((await reconcile(t.database.db)).discrepancies).toEqual([]);
    win(dispute);
    await post('charge.dispute.closed', dispute);
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
    const dispute = openDispute(payment);
    await post('charge.dispute.created', dispute);
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
  it('shows the orders Lost, keeps their unpaid payouts held, and names the loss until the take-back is wired', async () => {
    const s = await orderInTransit(t, {}, {}, payWithStripe);
    await onboard(s.seller.id);
    await onboard(s.driver.id);
    const payment = await paymentOfOrder(s.order.id);
    const dispute = openDispute(payment);
    withdrawFunds(dispute);
    await post('charge.dispute.funds_withdrawn', dispute);
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    dispute.status = 'lost';
    await post('charge.dispute.closed', dispute);
    await post('charge.dispute.closed', dispute);
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
  it('handles a prevented dispute (Stripe refunded the buyer) as a lost one: its payouts stay held', async () => {
    const s = await orderInTransit(t, {}, {}, payWithStripe);
    await onboard(s.seller.id);
    await onboard(s.driver.id);
    const payment = await paymentOfOrder(s.order.id);
    const dispute = openDispute(payment);
    dispute.status = 'prevented';
    await post('charge.dispute.closed', dispute);
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    expect(transfersOfOrder(s.order.id)).toHaveLength(0);
    expect((await reconcile(t.database.db)).discrepancies).toContainEqual({
      subject: `dispute ${dispute.id}`,
      message: `prevented $${payment.amount}, not taken back from the sellers and drivers yet`,
    });
  });
});

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
      const dispute = openDispute(payment);
      dispute.evidence_details.due_by = seconds(new Date(clock.getTime() + daysLeft * 86_400_000));
      await post('charge.dispute.created', dispute);
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

describe('splitLostAmount', () => {
  it('splits a lost amount over the orders in proportion, adding up exactly', () => {
    expect(splitLostAmount(10_000, [6_000, 4_000])).toEqual([6_000, 4_000]);
    expect(splitLostAmount(1_000, [3_333, 3_333, 3_334])).toEqual([333, 333, 334]);
    expect(splitLostAmount(100, [1, 1, 1]).reduce((a, b) => a + b, 0)).toBe(3);
    expect(splitLostAmount(101, [50, 50, 1])).toEqual([50, 50, 1]);
    expect(splitLostAmount(0, [500])).toEqual([0]);
  });
});
