import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { eq } from 'drizzle-orm';
import { orders, payouts as table } from '../../db/schema';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import { startFakeStripe, type FakeStripeServer } from '../../testing/stripe-server';
import { createFakeConnectAccounts, type FakeConnectAccounts } from '../../testing/stripe-connect-accounts';
import {
  createFakeConnectTransfers,
  type FakeConnectTransfers,
} from '../../testing/stripe-connect-transfers';
import { confirm, paymentRow, startPayment, type OrderJson, type PaymentJson } from '../../testing/commerce';
import { makeAccountReady, moveOrder, orderInTransit, payoutsOf } from '../../testing/payout-scenes';
import { buildApp } from '../../app';
import { StripePayoutTransfers } from '../../adapters/payouts/stripe-payout-transfers';
import type { PayoutProvider, PayoutTransfers } from '../../adapters/payouts/payout-provider';
import type { StripeConfig } from '../../config';
import { reconcile } from '../ledger/reconcile';
import { retryPayouts, settleOwedPayouts } from './settle-payouts';

/**
 * Transfers, reversals and their recovery with Stripe as the provider, against the local server
 * that speaks Stripe's API (docs/decisions/0013-money-movement.md, Transfers and the ledger).
 */
let t: TestApp;
let fake: FakeStripeServer;
let connect: FakeConnectAccounts;
let transfers: FakeConnectTransfers;
let stripeConfig: StripeConfig;
const log = { info: () => {}, warn: () => {}, error: () => {} };

beforeAll(async () => {
  connect = createFakeConnectAccounts();
  transfers = createFakeConnectTransfers();
  fake = await startFakeStripe({ routes: [connect.route, transfers.route] });
  transfers.bind({ accounts: connect.accounts, charges: fake.charges });
  t = await createTestApp({
    payoutRetryMs: 0,
    env: {
      STRIPE_SECRET_KEY: fake.secretKey,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_payouts',
      STRIPE_WEBHOOK_SECRET: 'whsec_payoutstest',
      STRIPE_API_BASE: fake.url,
    },
  });
  if (!t.config.stripe) throw new Error('Stripe is not configured');
  stripeConfig = t.config.stripe;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

/** Pays through Stripe: the intent, Stripe.js's card confirmation, and the browser's report. */
async function payWithStripe(
  app: TestApp,
  buyer: TestUser,
  body: Record<string, unknown>,
): Promise<OrderJson[]> {
  const started = await startPayment(app, buyer, body);
  if (started.statusCode !== 201) throw new Error(`payment failed: ${started.statusCode} ${started.body}`);
  const { paymentId } = started.json<PaymentJson>();
  const row = await paymentRow(app, paymentId);
  fake.succeed(row?.providerPaymentId ?? '');
  const confirmed = await confirm(app, buyer, paymentId, {});
  if (confirmed.statusCode !== 200)
    throw new Error(`confirm failed: ${confirmed.statusCode} ${confirmed.body}`);
  return confirmed.json<{ orders: OrderJson[] }>().orders;
}

/** A connected account at Stripe that finished onboarding, recorded as ready for the user. */
async function onboard(app: TestApp, userId: string): Promise<string> {
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
  return makeAccountReady(app, userId, account.id);
}

const transfersOfOrder = (orderId: string) =>
  transfers.transfers.filter((tr) => tr.metadata.orderId === orderId);

function providerOf(part: PayoutTransfers): PayoutProvider {
  const unused = () => Promise.reject(new Error('payout accounts are not used in this test'));
  return {
    name: 'stripe',
    createAccount: unused,
    retrieveAccount: unused,
    createOnboardingLink: unused,
    createDashboardLink: unused,
    ...part,
  };
}

describe('transfers on completion with Stripe', () => {
  it('makes one transfer per party from the buyer charge, however often delivery is reported', async () => {
    const s = await orderInTransit(t, {}, {}, (buyer, body) => payWithStripe(t, buyer, body));
    const sellerAccount = await onboard(t, s.seller.id);
    const driverAccount = await onboard(t, s.driver.id);
    const reports = await Promise.all([1, 2].map(() => moveOrder(t, s.driver, s.order.id, 'delivered')));
    expect(reports.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(409);
    const made = transfersOfOrder(s.order.id);
    expect(made).toHaveLength(2);
    const seller = made.find((tr) => tr.metadata.party === 'seller');
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, s.order.id));
    const payment = await paymentRow(t, order?.paymentId ?? '');
    expect(payment?.providerChargeId).toMatch(/^ch_/);
    expect(seller).toMatchObject({
      destination: sellerAccount,
      amount: Math.round(Number(s.order.sellerEarnings) * 100),
      currency: 'usd',
      source_transaction: payment?.providerChargeId,
      transfer_group: `payment_${payment?.id}`,
      metadata: { orderId: s.order.id, party: 'seller', key: `payout-${s.order.id}-seller` },
    });
    expect(made.find((tr) => tr.metadata.party === 'driver')?.destination).toBe(driverAccount);
    const keys = fake.requests
      .filter((r) => r.path === '/v1/transfers' && r.method === 'POST')
      .map((r) => r.idempotencyKey);
    expect(keys).toEqual(
      expect.arrayContaining([`payout-${s.order.id}-seller`, `payout-${s.order.id}-driver`]),
    );
    expect((await reconcile(t.database.db)).discrepancies).toEqual([]);
  });

  it('pays a seller without an account once their onboarding completes', async () => {
    const s = await orderInTransit(t, {}, {}, (buyer, body) => payWithStripe(t, buyer, body));
    await onboard(t, s.driver.id);
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    expect((await payoutsOf(t, s.order.id)).seller?.status).toBe('owed');
    expect(transfersOfOrder(s.order.id).map((tr) => tr.metadata.party)).toEqual(['driver']);
    await onboard(t, s.seller.id);
    const deps = {
      db: t.database.db,
      payouts: new StripePayoutTransfers(stripeConfig),
      now: () => new Date(),
      log,
      siteUrl: t.config.siteUrl,
    };
    expect(await settleOwedPayouts(deps, s.seller.id)).toBe(1);
    expect((await payoutsOf(t, s.order.id)).seller?.status).toBe('paid');
    expect(transfersOfOrder(s.order.id)).toHaveLength(2);
    expect((await reconcile(t.database.db)).discrepancies).toEqual([]);
  });

  it('reverses the transfers when an admin refunds the order after payout', async () => {
    const s = await orderInTransit(t, {}, {}, (buyer, body) => payWithStripe(t, buyer, body));
    await onboard(t, s.seller.id);
    await onboard(t, s.driver.id);
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    const admin = await signedInAs(t, 'admin');
    const refunded = await as(t, admin, {
      method: 'POST',
      url: `/api/admin/orders/${s.order.id}/refund`,
      payload: { reason: 'Damaged' },
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    for (const transfer of transfersOfOrder(s.order.id)) {
      expect(transfer).toMatchObject({ reversed: true, amount_reversed: transfer.amount });
      expect(transfer.reversals.data).toHaveLength(1);
    }
    const payouts = await payoutsOf(t, s.order.id);
    expect([payouts.seller?.status, payouts.driver?.status]).toEqual(['reversed', 'reversed']);
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, s.order.id));
    const payment = await paymentRow(t, order?.paymentId ?? '');
    expect(
      fake.refunds.filter((r) => r.payment_intent === payment?.providerPaymentId).map((r) => r.amount),
    ).toEqual([Math.round(Number(s.order.total) * 100)]);
    expect((await reconcile(t.database.db)).discrepancies).toEqual([]);
  });

  it('a partial refund after payout reverses each share first, then refunds the buyer', async () => {
    const s = await orderInTransit(t, {}, { price: '30.00' }, (buyer, body) => payWithStripe(t, buyer, body));
    await onboard(t, s.seller.id);
    await onboard(t, s.driver.id);
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    const admin = await signedInAs(t, 'admin');
    const from = fake.requests.length;
    const refunded = await as(t, admin, {
      method: 'POST',
      url: `/api/admin/orders/${s.order.id}/refund`,
      payload: { reason: 'One part missing', amount: '10.00' },
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json()).toMatchObject({ refundState: 'partially_refunded', refundedAmount: '10.00' });
    const calls = fake.requests
      .slice(from)
      .filter((r) => r.method === 'POST')
      .map((r) =>
        r.path.endsWith('/reversals') ? 'reversal' : r.path === '/v1/refunds' ? 'refund' : r.path,
      );
    expect(calls).toEqual(['reversal', 'reversal', 'refund']);
    const total = Math.round(Number(s.order.total) * 100);
    const share = (earnings: string | undefined) =>
      Math.round((Math.round(Number(earnings) * 100) * 1000) / total);
    const reversed = transfersOfOrder(s.order.id).map((transfer) => transfer.amount_reversed);
    expect(reversed.sort()).toEqual([share(s.order.sellerEarnings), share(s.order.driverEarnings)].sort());
    const payouts = await payoutsOf(t, s.order.id);
    expect([payouts.seller?.status, payouts.driver?.status]).toEqual(['paid', 'paid']);
    expect((await reconcile(t.database.db)).discrepancies).toEqual([]);
  });

  it('heals a crash after the commit at the next start, and never pays twice past the key window', async () => {
    let dying = true;
    const real = new StripePayoutTransfers(stripeConfig);
    const crashing = providerOf({
      transfer: (input) => (dying ? Promise.reject(new Error('process killed')) : real.transfer(input)),
      reverseTransfer: (input) => real.reverseTransfer(input),
      findTransfer: (input) => real.findTransfer(input),
    });
    const app = await createTestApp({
      payoutRetryMs: 0,
      payouts: crashing,
      env: {
        STRIPE_SECRET_KEY: fake.secretKey,
        STRIPE_PUBLISHABLE_KEY: 'pk_test_payouts',
        STRIPE_WEBHOOK_SECRET: 'whsec_payoutstest',
        STRIPE_API_BASE: fake.url,
      },
    });
    try {
      const s = await orderInTransit(app, {}, {}, (buyer, body) => payWithStripe(app, buyer, body));
      await onboard(app, s.seller.id);
      await onboard(app, s.driver.id);
      expect((await moveOrder(app, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
      expect(transfersOfOrder(s.order.id)).toHaveLength(0);
      dying = false;
      const restarted = await buildApp({
        config: app.config,
        database: app.database,
        sessionSecret: crypto.randomBytes(32).toString('hex'),
        storage: app.storage,
        payoutRetryMs: 60_000,
        jobQueue: { pollingIntervalSeconds: 0.5 },
      });
      try {
        // The job queue asks for a payout retry run as soon as the restarted app is ready.
        await restarted.ready();
        await expect
          .poll(
            async () => {
              const statuses = await payoutsOf(app, s.order.id);
              return [statuses.seller?.status, statuses.driver?.status];
            },
            { timeout: 20_000 },
          )
          .toEqual(['paid', 'paid']);
      } finally {
        await restarted.close();
      }
      expect(transfersOfOrder(s.order.id)).toHaveLength(2);
      const payouts = await payoutsOf(app, s.order.id);

      // Two days later Stripe has forgotten the keys; the payouts are made to look unfinished again
      // (an answer lost at the last attempt): the retry finds the transfers instead of paying again.
      fake.advance(48 * 60 * 60 * 1000);
      const lastAttempt = new Date(Date.now() - 48 * 60 * 60 * 1000);
      for (const payout of [payouts.seller, payouts.driver]) {
        if (!payout) continue;
        await app.database.db
          .update(table)
          .set({
            status: 'pending',
            providerTransferId: null,
            paidAt: null,
            firstAttemptAt: lastAttempt,
            lastAttemptAt: lastAttempt,
            isUncertain: true,
          })
          .where(eq(table.id, payout.id));
      }
      const report = await retryPayouts({
        db: app.database.db,
        payouts: real,
        now: () => new Date(),
        log,
        siteUrl: app.config.siteUrl,
      });
      expect(report.paid).toBe(2);
      expect(transfersOfOrder(s.order.id)).toHaveLength(2);
    } finally {
      await app.close();
    }
  });
});
