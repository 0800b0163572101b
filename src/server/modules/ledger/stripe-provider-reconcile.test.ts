import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type Stripe from 'stripe';
import { and, eq } from 'drizzle-orm';
import { ledgerEntries, orders } from '../../db/schema';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import { startStripeWorld, type StripeWorld } from '../../testing/stripe-world';
import { signWebhook, type FakeStripeEvent, type FakeStripeServer } from '../../testing/stripe-server';
import { PLATFORM } from '../../testing/stripe-balances';
import { confirm, paymentRow, startPayment, type OrderJson, type PaymentJson } from '../../testing/commerce';
import { makeAccountReady, moveOrder, orderInTransit, payoutsOf } from '../../testing/payout-scenes';
import { StripePaymentProvider } from '../../adapters/payments/stripe-payment-provider';
import type { StripeConfig } from '../../config';
import { parseCents } from '../../../domain/money';
import { reconcile } from './reconcile';
import { reconcileWithProvider, type ProviderReconcileReport } from './provider-reconcile';

/**
 * The provider's fees in the ledger and reconcile against the provider
 * (docs/decisions/0018-money-against-stripe.md), with Stripe as the provider: the local Stripe
 * world (startStripeWorld), whose charges, refunds, transfers and reversals make the platform's
 * balance transactions as Stripe does, each charge with Stripe's processing fee.
 */
let t: TestApp;
let world: StripeWorld;
let fake: FakeStripeServer;
let stripe: Stripe;
let provider: FeeReadsFailing;
let admin: TestUser;

/**
 * The app's Stripe adapter, unchanged but for a switch: while `failFeeReads` is above zero the
 * next fee read finds Stripe down (500s for the call and its two retries), so the fee is not
 * learnt with the payment and is left to the payments job.
 */
class FeeReadsFailing extends StripePaymentProvider {
  failFeeReads = 0;
  override async retrieveChargeFee(chargeId: string) {
    if (this.failFeeReads > 0) {
      this.failFeeReads -= 1;
      fake.failNext(3);
    }
    return super.retrieveChargeFee(chargeId);
  }
}

beforeAll(async () => {
  world = await startStripeWorld();
  fake = world.server;
  stripe = world.stripe;
  const stripeConfig: StripeConfig = {
    secretKey: world.env.STRIPE_SECRET_KEY,
    publishableKey: 'pk_test_reconcile',
    webhookSecret: 'whsec_reconciletest',
    apiBase: world.env.STRIPE_API_BASE,
  };
  provider = new FeeReadsFailing(stripeConfig);
  t = await createTestApp({
    payoutRetryMs: 0,
    payments: provider,
    env: {
      ...world.env,
      STRIPE_PUBLISHABLE_KEY: stripeConfig.publishableKey,
      STRIPE_WEBHOOK_SECRET: stripeConfig.webhookSecret,
      MONEY_RETRY_INTERVAL_MS: '0',
    },
  });
  admin = await signedInAs(t, 'admin');
});
afterAll(async () => {
  await t.close();
  await world.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

/** Stripe's processing fee on a charge of `amount` cents (2.9% + 30¢, the world's default). */
const cardFeeOf = (amount: number) => world.balances.processingFee(amount);

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
  world.connect.complete(account.id);
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
    // Stripe's fee: on the charge's balance transaction, 2.9% + 30¢ of the amount charged.
    const fee = world.balances.transactionsOf().find((txn) => txn.source === s.payment.providerChargeId)?.fee;
    expect(fee).toBe(cardFeeOf(parseCents(s.payment.amount)));
    if (fee === undefined) throw new Error('no balance transaction for the charge');
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

  it('is learnt by the payments job, once, when Stripe could not be asked with the payment', async () => {
    let charge = '';
    const s = await orderInTransit(t, {}, {}, (buyer, body) =>
      payWithStripe(buyer, body, (chargeId) => {
        charge = chargeId;
        provider.failFeeReads = 1;
      }),
    );
    expect(provider.failFeeReads).toBe(0);
    const fees = () =>
      t.database.db
        .select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.kind, 'provider_fee'), eq(ledgerEntries.providerReference, charge)));
    expect(await fees()).toEqual([]);
    // Stripe has the fee all along: the charge's balance transaction.
    const atStripe = world.balances.transactionsOf().find((txn) => txn.source === charge);
    expect(atStripe?.fee).toBe(cardFeeOf(Math.round(Number(s.order.total) * 100)));
    const report = await t.app.recoverPaidCheckouts();
    expect(report.feesLearnt).toBe(1);
    const [entry] = await fees();
    expect(parseCents(entry?.amount ?? '0')).toBe(atStripe?.fee);
    expect((await t.app.recoverPaidCheckouts()).feesLearnt).toBe(0);
    expect(await fees()).toHaveLength(1);
    expect((await reconcile(t.database.db)).discrepancies).toEqual([]);
    expect((await compared()).discrepancies).toEqual([]);
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
    // A second transfer of the same amount to the seller, made at Stripe and never recorded: the
    // charge has no room left for it, so it is paid from the platform's balance, topped up first.
    world.balances.record(PLATFORM, {
      amount: 100_000,
      currency: 'usd',
      type: 'topup',
      reporting_category: 'topup',
      source: fake.id('tu'),
    });
    const twice = await stripe.transfers.create({
      amount: parseCents(seller.amount),
      currency: 'usd',
      destination: s.sellerAccount,
      transfer_group: `payment_${s.payment.id}`,
    });
    // The driver's transfer is one Stripe never made: its balance transaction is not there.
    const driverTransfer = world.transfers.transfers.find((tr) => tr.id === driver.providerTransferId);
    const putBack = world.balances.remove(driverTransfer?.balance_transaction ?? '');
    const takeAway = () => world.balances.remove(String(twice.balance_transaction));
    try {
      const report = await compared();
      expect(report.discrepancies).toEqual(
        [
          `transfer ${twice.id} $${seller.amount} at the provider is not in the ledger`,
          `ledger transfer:${driver.id} ${driver.providerTransferId} $${driver.amount} is not at the provider`,
        ].sort(),
      );
      expect(report.notCompared).toMatchObject({ topup: 1 });
      // The database agrees with itself all the same: only the provider shows it.
      expect((await reconcile(t.database.db)).discrepancies).toEqual([]);
    } finally {
      takeAway();
      putBack();
    }
    expect((await compared()).discrepancies).toEqual([]);
  });

  it("matches a dispute's withdrawal and reinstatement by their balance transactions", async () => {
    const s = await deliveredOrder();
    const deliver = async (events: FakeStripeEvent[]) => {
      for (const event of events) {
        const payload = JSON.stringify(event);
        const response = await t.app.inject({
          method: 'POST',
          url: '/api/stripe/webhook',
          headers: {
            'content-type': 'application/json',
            'stripe-signature': signWebhook(payload, 'whsec_reconciletest'),
          },
          payload,
        });
        expect(response.statusCode, response.body).toBe(200);
      }
    };
    const opened = world.disputes.open(s.payment.providerChargeId ?? '', { reason: 'fraudulent' });
    await deliver(opened.events);
    await deliver(world.disputes.win(opened.dispute.id).events);
    const entries = await t.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.paymentId, s.payment.id));
    expect(
      entries
        .filter((e) => e.kind.startsWith('dispute'))
        .map((e) => e.kind)
        .sort(),
    ).toEqual(['dispute', 'dispute_fee', 'dispute_reinstated']);
    const report = await compared();
    expect(report.discrepancies).toEqual([]);
    expect(report.compared).toMatchObject({ dispute: 1, dispute_fee: 1, dispute_reinstated: 1 });
    expect((await reconcile(t.database.db)).discrepancies).toEqual([]);
  });
});
