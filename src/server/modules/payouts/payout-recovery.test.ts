import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { eq } from 'drizzle-orm';
import { payouts as table } from '../../db/schema';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import { startFakeStripe, type FakeStripeServer } from '../../testing/stripe-server';
import { createFakeConnectAccounts, type FakeConnectAccounts } from '../../testing/stripe-connect-accounts';
import {
  createFakeConnectTransfers,
  type FakeConnectTransfers,
} from '../../testing/stripe-connect-transfers';
import { confirm, paymentRow, startPayment, type OrderJson, type PaymentJson } from '../../testing/commerce';
import { makeAccountReady, moveOrder, orderInTransit, payoutsOf } from '../../testing/payout-scenes';
import { StripePayoutTransfers } from '../../adapters/payouts/stripe-payout-transfers';
import type { PayoutProvider, PayoutTransfers } from '../../adapters/payouts/payout-provider';
import { PAYOUT_NOT_RETRYABLE, type FailedPayout, type MyPayouts } from '../../../domain/payouts';
import { reconcile } from '../ledger/reconcile';
import { retryPayouts } from './settle-payouts';

/**
 * Transfers made exactly once past Stripe's key window, and payouts the provider refuses brought
 * back (docs/decisions/0018-money-against-stripe.md, Transfers exactly once; Failed payouts), against
 * the local server that speaks Stripe's API. The app's clock and the server's move together.
 */
let t: TestApp;
let fake: FakeStripeServer;
let connect: FakeConnectAccounts;
let transfers: FakeConnectTransfers;
let real: StripePayoutTransfers;
const log = { info: () => {}, warn: () => {}, error: () => {} };
const HOUR = 60 * 60 * 1000;

/** How the wrapped provider behaves: Stripe itself, unreachable, or reached with its answer lost. */
let network: 'up' | 'down' | 'answer-lost' = 'up';
/** The app's clock runs this far ahead of the wall clock, as does the local Stripe server's. */
let ahead = 0;
const now = () => new Date(Date.now() + ahead);
function moveClocks(ms: number): void {
  ahead += ms;
  fake.advance(ms);
}

const flaky: PayoutTransfers = {
  async transfer(input) {
    if (network === 'down') throw new Error('connect ECONNREFUSED');
    const made = await real.transfer(input);
    if (network === 'answer-lost') throw new Error('socket hang up');
    return made;
  },
  reverseTransfer: (input) => real.reverseTransfer(input),
  findTransfer: (input) => real.findTransfer(input),
};

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

beforeAll(async () => {
  connect = createFakeConnectAccounts();
  transfers = createFakeConnectTransfers();
  fake = await startFakeStripe({ routes: [connect.route, transfers.route] });
  transfers.bind({ accounts: connect.accounts, charges: fake.charges });
  t = await createTestApp({
    payoutRetryMs: 0,
    payouts: providerOf(flaky),
    now,
    env: {
      STRIPE_SECRET_KEY: fake.secretKey,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_recovery',
      STRIPE_WEBHOOK_SECRET: 'whsec_recoverytest',
      STRIPE_API_BASE: fake.url,
    },
  });
  if (!t.config.stripe) throw new Error('Stripe is not configured');
  real = new StripePayoutTransfers(t.config.stripe);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
afterEach(() => {
  network = 'up';
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

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

const transfersOf = (orderId: string, party: string) =>
  transfers.transfers.filter((tr) => tr.metadata.orderId === orderId && tr.metadata.party === party);
const transferCalls = () => fake.requests.filter((r) => r.path === '/v1/transfers' && r.method === 'POST');
const retry = () => retryPayouts({ db: t.database.db, payouts: flaky, now, log, siteUrl: t.config.siteUrl });

describe('a transfer is made once however late its retries come', () => {
  it('a lost answer, then a failed retry at +23 h and a retry at +25 h: one transfer, found, not made again', async () => {
    const s = await orderInTransit(t, {}, {}, payWithStripe);
    await onboard(s.seller.id);
    await onboard(s.driver.id);
    network = 'answer-lost';
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    expect(transfersOf(s.order.id, 'seller')).toHaveLength(1);
    expect((await payoutsOf(t, s.order.id)).seller?.status).toBe('pending');

    // Within the key window the network is down: the attempt is counted, nothing reaches Stripe.
    moveClocks(23 * HOUR);
    network = 'down';
    await retry();
    expect((await payoutsOf(t, s.order.id)).seller?.status).toBe('pending');

    // Two hours later Stripe has forgotten the key (24 hours after its first use). Counted from the
    // last attempt the window would still be open and the same key would make a second transfer.
    moveClocks(2 * HOUR);
    network = 'up';
    const report = await retry();
    expect(report.paid).toBeGreaterThanOrEqual(2);
    for (const party of ['seller', 'driver']) {
      const made = transfersOf(s.order.id, party);
      expect(made, party).toHaveLength(1);
      const payout = (await payoutsOf(t, s.order.id))[party as 'seller' | 'driver'];
      expect(payout).toMatchObject({ status: 'paid', providerTransferId: made[0]?.id });
    }
    expect((await reconcile(t.database.db)).discrepancies).toEqual([]);
  });
});

describe('a payout the provider refuses', () => {
  it('is tried again with backoff while the account is ready, refused for good after five refusals, and sent by an admin', async () => {
    const s = await orderInTransit(t, {}, {}, payWithStripe);
    const sellerAccount = await onboard(s.seller.id);
    await onboard(s.driver.id);
    // Stripe took the transfers capability away; our record of the account still says ready.
    const account = connect.accounts.get(sellerAccount);
    if (!account) throw new Error('no account');
    account.capabilities.transfers = 'inactive';
    const callsBefore = transferCalls().length;
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    const refusedOnce = (await payoutsOf(t, s.order.id)).seller;
    expect(refusedOnce).toMatchObject({ status: 'failed', refusals: 1 });
    const backoff =
      (refusedOnce?.nextAttemptAt?.getTime() ?? 0) - (refusedOnce?.lastAttemptAt?.getTime() ?? 0);
    expect(backoff).toBeGreaterThanOrEqual(15 * 60 * 1000);
    expect(backoff).toBeLessThan(16 * 60 * 1000);

    // Before its backoff ends the retry job leaves it; after, it tries again: 15 min, 1 h, 4 h, 16 h.
    moveClocks(10 * 60 * 1000);
    await retry();
    const sellerCalls = () =>
      transferCalls()
        .slice(callsBefore)
        // Each refusal moves the payout to a new key: Stripe answers a refusal again to the same key
        // (docs/decisions/0022-money-in-combinations.md, Transfers and their keys).
        .filter((r) => r.idempotencyKey?.startsWith(`payout-${s.order.id}-seller`)).length;
    expect(sellerCalls()).toBe(1);
    for (const [wait, refusals] of [
      [15 * 60 * 1000, 2],
      [HOUR, 3],
      [4 * HOUR, 4],
    ] as const) {
      moveClocks(wait);
      await retry();
      expect((await payoutsOf(t, s.order.id)).seller).toMatchObject({ status: 'failed', refusals });
    }
    moveClocks(16 * HOUR);
    await retry();
    expect((await payoutsOf(t, s.order.id)).seller).toMatchObject({
      status: 'refused',
      refusals: 5,
      nextAttemptAt: null,
    });
    expect(sellerCalls()).toBe(5);

    // Refused for good: a week of retry jobs leaves it alone; the payee and the admin see it.
    moveClocks(7 * 24 * HOUR);
    await retry();
    expect(sellerCalls()).toBe(5);
    const mine = await as(t, s.seller, { method: 'GET', url: '/api/payouts' });
    expect(mine.json<MyPayouts>().payouts.find((p) => p.orderId === s.order.id)?.status).toBe('refused');
    const admin = await signedInAs(t, 'admin');
    const listed = await as(t, admin, { method: 'GET', url: '/api/admin/payouts' });
    const payoutId = (await payoutsOf(t, s.order.id)).seller?.id ?? '';
    expect(listed.json<{ failed: FailedPayout[] }>().failed.find((p) => p.id === payoutId)).toMatchObject({
      status: 'refused',
      refusals: 5,
      nextAttemptAt: null,
      lastError: expect.stringContaining('capabilities'),
    });

    // Only an admin may send it again; once the account works, it goes out at once.
    const byPayee = await as(t, s.seller, { method: 'POST', url: `/api/admin/payouts/${payoutId}/retry` });
    expect(byPayee.statusCode).toBe(403);
    account.capabilities.transfers = 'active';
    const retried = await as(t, admin, { method: 'POST', url: `/api/admin/payouts/${payoutId}/retry` });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json<FailedPayout>()).toMatchObject({ status: 'paid', refusals: 0, lastError: null });
    expect(transfersOf(s.order.id, 'seller')).toHaveLength(1);
    const again = await as(t, admin, { method: 'POST', url: `/api/admin/payouts/${payoutId}/retry` });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: PAYOUT_NOT_RETRYABLE });
    const unknown = await as(t, admin, {
      method: 'POST',
      url: '/api/admin/payouts/00000000-0000-4000-8000-000000000000/retry',
    });
    expect(unknown.statusCode).toBe(404);
    const [row] = await t.database.db.select().from(table).where(eq(table.id, payoutId));
    expect(row?.status).toBe('paid');
    expect((await reconcile(t.database.db)).discrepancies).toEqual([]);
  });
});
