import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { orders } from '../../db/schema';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import { startStripeWorld, type StripeWorld } from '../../testing/stripe-world';
import { confirm, paymentRow, startPayment, type OrderJson, type PaymentJson } from '../../testing/commerce';
import {
  ledgerOf,
  makeAccountReady,
  moveOrder,
  orderInTransit,
  payoutsOf,
} from '../../testing/payout-scenes';
import { StripePayoutTransfers } from '../../adapters/payouts/stripe-payout-transfers';
import type { AdminPayouts } from '../../../domain/payouts';
import { formatCents, parseCents } from '../../../domain/money';
import { reconcile } from '../ledger/reconcile';
import { retryPayouts } from './settle-payouts';

/**
 * A refund after the seller's and driver's balances were paid out to their banks, against the local
 * Stripe that drains connected accounts with automatic payouts and refuses a reversal their balance
 * cannot cover (docs/decisions/0018-money-against-stripe.md, Refunds): the loss is explicit, in the
 * ledger, the admin's view and reconcile, and never retried.
 */
let world: StripeWorld;
let t: TestApp;
let ahead = 0;
const now = () => new Date(Date.now() + ahead);
const DAY = 24 * 60 * 60 * 1000;
const log = { info: () => {}, warn: () => {}, error: () => {} };

beforeAll(async () => {
  world = await startStripeWorld();
  t = await createTestApp({
    payoutRetryMs: 0,
    now,
    env: {
      ...world.env,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_refundafterpayout',
      STRIPE_WEBHOOK_SECRET: 'whsec_refundafterpayout',
    },
  });
});
afterAll(async () => {
  await t.close();
  await world.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

async function payWithStripe(buyer: TestUser, body: Record<string, unknown>): Promise<OrderJson[]> {
  const started = await startPayment(t, buyer, body);
  if (started.statusCode !== 201) throw new Error(`payment failed: ${started.statusCode} ${started.body}`);
  const { paymentId } = started.json<PaymentJson>();
  world.server.succeed((await paymentRow(t, paymentId))?.providerPaymentId ?? '');
  const confirmed = await confirm(t, buyer, paymentId, {});
  if (confirmed.statusCode !== 200)
    throw new Error(`confirm failed: ${confirmed.statusCode} ${confirmed.body}`);
  return confirmed.json<{ orders: OrderJson[] }>().orders;
}

async function onboard(userId: string): Promise<string> {
  const account = await world.stripe.accounts.create({
    type: 'express',
    capabilities: { transfers: { requested: true } },
  });
  world.connect.complete(account.id);
  return makeAccountReady(t, userId, account.id);
}

describe('a refund after the payout reached the bank', () => {
  it('ends as an explicit loss the platform bears: in the ledger, the admin view and reconcile, never retried', async () => {
    const s = await orderInTransit(t, {}, {}, payWithStripe);
    const sellerAccount = await onboard(s.seller.id);
    const driverAccount = await onboard(s.driver.id);
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    const paid = await payoutsOf(t, s.order.id);
    expect([paid.seller?.status, paid.driver?.status]).toEqual(['paid', 'paid']);

    // Three days later the charge's funds are available and Stripe's daily automatic payouts have
    // sent both accounts' balances to their banks.
    ahead += 3 * DAY;
    world.server.advance(3 * DAY);
    for (const account of [sellerAccount, driverAccount])
      expect(world.balances.balanceOf(account)).toEqual({ available: 0, pending: 0 });

    const admin = await signedInAs(t, 'admin');
    const refunded = await as(t, admin, {
      method: 'POST',
      url: `/api/admin/orders/${s.order.id}/refund`,
      payload: { reason: 'Never arrived in one piece' },
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json<OrderJson & { refundState: string }>().refundState).toBe('refunded');

    // The reversals were asked for first and refused; the buyer was refunded anyway.
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, s.order.id));
    const payment = await paymentRow(t, order?.paymentId ?? '');
    const posts = world.server.requests.filter((r) => r.method === 'POST');
    const reversalCalls = posts.filter((r) => /^\/v1\/transfers\/[^/]+\/reversals$/.test(r.path));
    expect(reversalCalls).toHaveLength(2);
    const refundCall = posts.findIndex((r) => r.path === '/v1/refunds');
    expect(refundCall).toBeGreaterThan(posts.lastIndexOf(reversalCalls[1]!));
    expect(
      world.server.refunds
        .filter((r) => r.payment_intent === payment?.providerPaymentId)
        .map((r) => r.amount),
    ).toEqual([parseCents(s.order.total ?? '')]);
    for (const transfer of world.transfers.transfers.filter((tr) => tr.metadata.orderId === s.order.id))
      expect(transfer.amount_reversed).toBe(0);

    // The loss is named: a reversal_loss per party, the admin's list and balance, reconcile's line.
    const earnings = parseCents(s.order.sellerEarnings ?? '') + parseCents(s.order.driverEarnings ?? '0');
    const losses = (await ledgerOf(t, s.order.id)).filter((entry) => entry.kind === 'reversal_loss');
    expect(losses.reduce((sum, entry) => sum + parseCents(entry.amount), 0)).toBe(earnings);
    const view = (await as(t, admin, { method: 'GET', url: '/api/admin/payouts' })).json<AdminPayouts>();
    const listed = view.losses.filter((loss) => loss.orderId === s.order.id);
    expect(listed.map((loss) => loss.kind).sort()).toEqual(['driver', 'seller']);
    for (const loss of listed) expect(loss.providerMessage).toMatch(/balance|insufficient/i);
    const report = await reconcile(t.database.db);
    expect(report.discrepancies).toEqual([]);
    expect(report.lossesBorne).toBeGreaterThanOrEqual(earnings);
    expect(formatCents(report.platformBalance)).toBe(view.platformBalance);

    // Never "in flight" for ever: the retry job does not ask Stripe again.
    const before = world.server.requests.length;
    ahead += DAY;
    world.server.advance(DAY);
    await retryPayouts({
      db: t.database.db,
      payouts: new StripePayoutTransfers(t.config.stripe!),
      now,
      log,
      siteUrl: t.config.siteUrl,
    });
    expect(
      world.server.requests.slice(before).filter((r) => r.path.includes('/reversals') && r.method === 'POST'),
    ).toEqual([]);
  });
});
