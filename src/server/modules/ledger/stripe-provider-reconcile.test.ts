import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { and, eq } from 'drizzle-orm';
import { ledgerEntries, orders } from '../../db/schema';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import { startFakeStripe, type FakeStripeServer } from '../../testing/stripe-server';
import { createFakeConnectAccounts, type FakeConnectAccounts } from '../../testing/stripe-connect-accounts';
import {
  createFakeConnectTransfers,
  type FakeConnectTransfers,
} from '../../testing/stripe-connect-transfers';
import { cardFeeOf, createFakeBalance, type FakeBalance } from '../../testing/provider-balance-route';
import { confirm, paymentRow, startPayment, type OrderJson, type PaymentJson } from '../../testing/commerce';
import { makeAccountReady, moveOrder, orderInTransit, payoutsOf } from '../../testing/payout-scenes';
import { StripePaymentProvider } from '../../adapters/payments/stripe-payment-provider';
import { parseCents } from '../../../domain/money';
import { reconcile } from './reconcile';
import { reconcileWithProvider, type ProviderReconcileReport } from './provider-reconcile';

/**
 * The provider's fees in the ledger and reconcile against the provider
 * (docs/decisions/0018-money-against-stripe.md), with Stripe as the provider: the local Stripe
 * server with Connect and, until the faithful fake lands, a route of balance transactions.
 */
let t: TestApp;
let fake: FakeStripeServer;
let connect: FakeConnectAccounts;
let transfers: FakeConnectTransfers;
let balance: FakeBalance;
let stripe: Stripe;
let provider: StripePaymentProvider;
let admin: TestUser;

beforeAll(async () => {
  connect = createFakeConnectAccounts();
  transfers = createFakeConnectTransfers();
  balance = createFakeBalance();
  fake = await startFakeStripe({ routes: [connect.route, transfers.route, balance.route] });
  transfers.bind({ accounts: connect.accounts, charges: fake.charges });
  balance.bind({ charges: fake.charges, refunds: fake.refunds, transfers: transfers.transfers });
  t = await createTestApp({
    payoutRetryMs: 0,
    env: {
      STRIPE_SECRET_KEY: fake.secretKey,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_reconcile',
      STRIPE_WEBHOOK_SECRET: 'whsec_reconciletest',
      STRIPE_API_BASE: fake.url,
      MONEY_RETRY_INTERVAL_MS: '0',
    },
  });
  if (!t.config.stripe) throw new Error('Stripe is not configured');
  provider = new StripePaymentProvider(t.config.stripe);
  stripe = new Stripe(fake.secretKey, { host: '127.0.0.1', port: new URL(fake.url).port, protocol: 'http' });
  admin = await signedInAs(t, 'admin');
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

/** Pays through Stripe; `beforeReport` runs once the card is charged, before the browser reports it. */
async function payWithStripe(
  buyer: TestUser,
  body: Record<string, unknown>,
  beforeReport: (chargeId: string) => void = () => {},
): Promise<OrderJson[]> {
  const started = await startPayment(t, buyer, body);
  if (started.statusCode !== 201) throw new Error(`payment failed: ${started.statusCode} ${started.body}`);
  const { paymentId } = started.json<PaymentJson>();
  const row = await paymentRow(t, paymentId);
  const intent = fake.succeed(row?.providerPaymentId ?? '');
  beforeReport(intent.latest_charge ?? '');
  const confirmed = await confirm(t, buyer, paymentId, {});
  if (confirmed.statusCode !== 200)
    throw new Error(`confirm failed: ${confirmed.statusCode} ${confirmed.body}`);
  return confirmed.json<{ orders: OrderJson[] }>().orders;
}

async function onboard(userId: string): Promise<string> {
  const account = await stripe.accounts.create({
    type: 'express',
    capabilities: { transfers: { requested: true } },
  });
  connect.complete(account.id);
  return makeAccountReady(t, userId, account.id);
}

/** A delivered order paid through Stripe, its seller and driver paid out. */
async function deliveredOrder(price = '20.00') {
  const s = await orderInTransit(t, {}, { price }, (buyer, body) => payWithStripe(buyer, body));
  const sellerAccount = await onboard(s.seller.id);
  await onboard(s.driver.id);
  expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
  const [order] = await t.database.db.select().from(orders).where(eq(orders.id, s.order.id));
  if (!order?.paymentId) throw new Error('no order');
  const payment = await paymentRow(t, order.paymentId);
  if (!payment?.providerChargeId) throw new Error('no charge');
  return { ...s, row: order, payment, sellerAccount };
}

const platformBalance = async () => {
  const view = await as(t, admin, { method: 'GET', url: '/api/admin/payouts' });
  expect(view.statusCode, view.body).toBe(200);
  return parseCents(view.json<{ platformBalance: string }>().platformBalance);
};

const HOUR = 60 * 60 * 1000;
const lastHours = () => ({ from: new Date(Date.now() - HOUR), to: new Date(Date.now() + HOUR) });

async function compared(): Promise<Extract<ProviderReconcileReport, { kind: 'compared' }>> {
  const report = await reconcileWithProvider(t.database.db, provider, lastHours());
  if (report.kind !== 'compared') throw new Error(report.message);
  return report;
}

describe("the provider's fee", () => {
  it('is in the ledger, and a 2% commission on a large order leaves the platform balance negative', async () => {
    const settings = await as(t, admin, {
      method: 'PATCH',
      url: '/api/admin/commission-settings',
      payload: {
        baseCommissionRate: '0.0200',
        minCommissionRate: '0.0200',
        salesPriceTierAmount: '500.00',
        salesPriceTierReduction: '0.0000',
        deliveryFeeTierAmount: '200.00',
        deliveryFeeTierReduction: '0.0000',
        loyaltyTierAmount: '1000.00',
        loyaltyTierReduction: '0.0000',
      },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const before = await platformBalance();
    const s = await deliveredOrder('2000.00');
    const fee = cardFeeOf(parseCents(s.payment.amount));
    const [entry] = await t.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.kind, 'provider_fee'), eq(ledgerEntries.paymentId, s.payment.id)));
    expect(entry).toMatchObject({
      entryKey: `provider_fee:${s.payment.id}`,
      providerReference: s.payment.providerChargeId,
    });
    expect(parseCents(entry?.amount ?? '0')).toBe(fee);
    // The charge names Stripe's charge too: the source of its balance transaction.
    const [charge] = await t.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.kind, 'charge'), eq(ledgerEntries.paymentId, s.payment.id)));
    expect(charge?.providerReference).toBe(s.payment.providerChargeId);
    const platformFee = parseCents(s.row.platformFee);
    expect(platformFee).toBeLessThan(fee);
    expect((await platformBalance()) - before).toBe(platformFee - fee);
    expect(await platformBalance()).toBeLessThan(0);
    // Reconcile's own figure is the admin's, and its cash check counts the fee.
    const checked = await reconcile(t.database.db);
    expect(checked.discrepancies).toEqual([]);
    expect(checked.platformBalance).toBe(await platformBalance());
    expect((await compared()).discrepancies).toEqual([]);
  });

  it('is learnt by the payments job when Stripe has no balance transaction for the charge yet', async () => {
    let charge = '';
    const s = await orderInTransit(t, {}, {}, (buyer, body) =>
      payWithStripe(buyer, body, (chargeId) => {
        charge = chargeId;
        balance.pendingFees.add(chargeId);
      }),
    );
    const fees = () =>
      t.database.db
        .select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.kind, 'provider_fee'), eq(ledgerEntries.providerReference, charge)));
    expect(await fees()).toEqual([]);
    balance.pendingFees.delete(charge);
    const report = await t.app.recoverPaidCheckouts();
    expect(report.feesLearnt).toBe(1);
    const [entry] = await fees();
    expect(parseCents(entry?.amount ?? '0')).toBe(cardFeeOf(Math.round(Number(s.order.total) * 100)));
    expect((await t.app.recoverPaidCheckouts()).feesLearnt).toBe(0);
    expect((await reconcile(t.database.db)).discrepancies).toEqual([]);
  });
});

describe('reconcile against the provider', () => {
  it('is clean when charges, fees, transfers, a refund and its reversals are on both sides', async () => {
    const s = await deliveredOrder();
    const refunded = await as(t, admin, {
      method: 'POST',
      url: `/api/admin/orders/${s.order.id}/refund`,
      payload: { reason: 'Damaged' },
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    const report = await compared();
    expect(report.discrepancies).toEqual([]);
    expect(report.compared).toMatchObject({
      charge: expect.any(Number),
      provider_fee: expect.any(Number),
      transfer: expect.any(Number),
      refund: 1,
      reversal: 2,
    });
    expect((await reconcile(t.database.db)).discrepancies).toEqual([]);
  });

  it('names a transfer made twice at Stripe and one Stripe never made', async () => {
    const s = await deliveredOrder();
    const payouts = await payoutsOf(t, s.order.id);
    const seller = payouts.seller;
    const driver = payouts.driver;
    if (!seller?.providerTransferId || !driver?.providerTransferId) throw new Error('not paid out');
    // A second transfer of the same amount to the seller, made at Stripe and never recorded.
    const twice = await stripe.transfers.create({
      amount: parseCents(seller.amount),
      currency: 'usd',
      destination: s.sellerAccount,
      transfer_group: `payment_${s.payment.id}`,
    });
    // The driver's transfer is gone from Stripe's list.
    const index = transfers.transfers.findIndex((tr) => tr.id === driver.providerTransferId);
    const [removed] = transfers.transfers.splice(index, 1);
    try {
      const report = await compared();
      expect(report.discrepancies).toEqual(
        [
          `transfer ${twice.id} $${seller.amount} at the provider is not in the ledger`,
          `ledger transfer:${driver.id} ${driver.providerTransferId} $${driver.amount} is not at the provider`,
        ].sort(),
      );
      // The database agrees with itself all the same: only the provider shows it.
      expect((await reconcile(t.database.db)).discrepancies).toEqual([]);
    } finally {
      const planted = transfers.transfers.findIndex((tr) => tr.id === twice.id);
      if (planted >= 0) transfers.transfers.splice(planted, 1);
      if (removed) transfers.transfers.splice(index, 0, removed);
    }
    expect((await compared()).discrepancies).toEqual([]);
  });
});
