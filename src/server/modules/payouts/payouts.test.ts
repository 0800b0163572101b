import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { as, signedInAs, type TestApp, type TestUser, createTestApp } from '../../testing/test-app';
import {
  ledgerOf,
  makeAccountReady,
  moveOrder,
  orderInTransit,
  payoutsOf,
} from '../../testing/payout-scenes';
import { buildApp } from '../../app';
import { ledgerEntries, payoutReversals, payouts as payoutsTable, testTransfers } from '../../db/schema';
import { TestPayoutTransfers } from '../../adapters/payouts/test-payout-transfers';
import type { PayoutProvider, PayoutTransfers } from '../../adapters/payouts/payout-provider';
import { PayoutRefusedError } from '../../adapters/payouts/payout-errors';
import { PaymentProviderUnavailableError } from '../../adapters/payments/payment-provider';
import { formatReconcileReport, reconcile } from '../ledger/reconcile';
import { retryPayouts, settleOwedPayouts } from './settle-payouts';
import { ORDER_ALREADY_REFUNDED, ORDER_NOT_FINISHED_FOR_REFUND } from '../../../domain/payouts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ payoutRetryMs: 0 });
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

const log = { info: () => {}, warn: () => {}, error: () => {} };
const deps = (payouts: PayoutTransfers, now: () => Date = () => new Date()) => ({
  db: t.database.db,
  payouts,
  now,
  log,
  siteUrl: t.config.siteUrl,
});

async function transfersOf(orderId: string) {
  return t.database.db
    .select()
    .from(testTransfers)
    .where(sql`${testTransfers.metadata}->>'orderId' = ${orderId}`);
}

async function expectReconciled() {
  const report = await reconcile(t.database.db);
  expect(report.discrepancies).toEqual([]);
  return report;
}

describe('transfers on completion with the test provider (docs/decisions/0013-money-movement.md)', () => {
  it('pays the seller and the driver their stored earnings once, however often delivery is reported', async () => {
    const s = await orderInTransit(t);
    await makeAccountReady(t, s.seller.id);
    await makeAccountReady(t, s.driver.id);
    const reports = await Promise.all([1, 2, 3].map(() => moveOrder(t, s.driver, s.order.id, 'delivered')));
    expect(reports.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    const again = await moveOrder(t, s.driver, s.order.id, 'delivered');
    expect(again.statusCode).toBe(409);
    const payouts = await payoutsOf(t, s.order.id);
    expect(payouts.seller).toMatchObject({ status: 'paid', amount: s.order.sellerEarnings });
    expect(payouts.driver).toMatchObject({ status: 'paid', amount: s.order.driverEarnings });
    const transfers = await transfersOf(s.order.id);
    expect(transfers.filter((row) => row.kind === 'transfer')).toHaveLength(2);
    const ledger = await ledgerOf(t, s.order.id);
    expect(ledger.map((row) => `${row.kind} ${row.amount}`).sort()).toEqual(
      [
        `platform_fee ${s.order.platformFee as string}`,
        `transfer ${s.order.driverEarnings}`,
        `transfer ${s.order.sellerEarnings as string}`,
      ].sort(),
    );
    // A retry of everything pays nothing more.
    expect(await retryPayouts(deps(new TestPayoutTransfers(t.database.db)))).toEqual({
      paid: 0,
      reversed: 0,
      restored: 0,
    });
    expect(await transfersOf(s.order.id)).toHaveLength(2);
    await expectReconciled();
  });

  it('owes a party without a ready account, and pays them once their onboarding completes', async () => {
    const s = await orderInTransit(t);
    await makeAccountReady(t, s.driver.id);
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    let payouts = await payoutsOf(t, s.order.id);
    expect(payouts.seller?.status).toBe('owed');
    expect(payouts.driver?.status).toBe('paid');
    const owed = await as(t, s.seller, { method: 'GET', url: '/api/payouts' });
    expect(owed.json()).toMatchObject({ owed: s.order.sellerEarnings, paidOut: '0.00' });
    let report = await expectReconciled();
    expect(report.owedPayouts).toBeGreaterThan(0);

    // Not ready yet: nothing is paid.
    expect(await settleOwedPayouts(deps(new TestPayoutTransfers(t.database.db)), s.seller.id)).toBe(0);
    await makeAccountReady(t, s.seller.id);
    expect(await settleOwedPayouts(deps(new TestPayoutTransfers(t.database.db)), s.seller.id)).toBe(1);
    expect(await settleOwedPayouts(deps(new TestPayoutTransfers(t.database.db)), s.seller.id)).toBe(0);
    payouts = await payoutsOf(t, s.order.id);
    expect(payouts.seller?.status).toBe('paid');
    expect((await transfersOf(s.order.id)).filter((row) => row.kind === 'transfer')).toHaveLength(2);
    const paid = await as(t, s.seller, { method: 'GET', url: '/api/payouts' });
    expect(paid.json()).toMatchObject({ paidOut: s.order.sellerEarnings });
    expect(paid.json().payouts[0]).toMatchObject({ orderId: s.order.id, status: 'paid', kind: 'seller' });
    report = await expectReconciled();
  });

  it('reverses paid transfers when an admin refunds a finished order, once', async () => {
    const s = await orderInTransit(t);
    await makeAccountReady(t, s.seller.id);
    await makeAccountReady(t, s.driver.id);
    const admin = await signedInAs(t, 'admin');
    const early = await as(t, admin, {
      method: 'POST',
      url: `/api/admin/orders/${s.order.id}/refund`,
      payload: { reason: 'Broken on arrival' },
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(ORDER_NOT_FINISHED_FOR_REFUND);
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    const bySeller = await as(t, s.seller, {
      method: 'POST',
      url: `/api/admin/orders/${s.order.id}/refund`,
      payload: { reason: 'x' },
    });
    expect(bySeller.statusCode).toBe(403);
    const refunded = await as(t, admin, {
      method: 'POST',
      url: `/api/admin/orders/${s.order.id}/refund`,
      payload: { reason: 'Broken on arrival' },
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    const payouts = await payoutsOf(t, s.order.id);
    expect(payouts.seller?.status).toBe('reversed');
    expect(payouts.driver?.status).toBe('reversed');
    expect((await transfersOf(s.order.id)).filter((row) => row.kind === 'reversal')).toHaveLength(2);
    const kinds = (await ledgerOf(t, s.order.id)).map((row) => row.kind).sort();
    expect(kinds).toEqual(
      [
        'platform_fee',
        'platform_fee_refund',
        'refund',
        'reversal',
        'reversal',
        'transfer',
        'transfer',
      ].sort(),
    );
    const twice = await as(t, admin, {
      method: 'POST',
      url: `/api/admin/orders/${s.order.id}/refund`,
      payload: { reason: 'Again' },
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(ORDER_ALREADY_REFUNDED);
    const mine = await as(t, s.seller, { method: 'GET', url: '/api/payouts' });
    expect(mine.json()).toMatchObject({ reversed: s.order.sellerEarnings, paidOut: '0.00' });
    await expectReconciled();
  });

  it('cancels an owed payout when its finished order is refunded: nothing goes out later', async () => {
    const s = await orderInTransit(t);
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    const admin = await signedInAs(t, 'admin');
    const refunded = await as(t, admin, {
      method: 'POST',
      url: `/api/admin/orders/${s.order.id}/refund`,
      payload: { reason: 'Never arrived' },
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    await makeAccountReady(t, s.seller.id);
    await makeAccountReady(t, s.driver.id);
    expect(await settleOwedPayouts(deps(new TestPayoutTransfers(t.database.db)), s.seller.id)).toBe(0);
    expect(await retryPayouts(deps(new TestPayoutTransfers(t.database.db)))).toEqual({
      paid: 0,
      reversed: 0,
      restored: 0,
    });
    const payouts = await payoutsOf(t, s.order.id);
    expect([payouts.seller?.status, payouts.driver?.status]).toEqual(['cancelled', 'cancelled']);
    expect(await transfersOf(s.order.id)).toHaveLength(0);
    await expectReconciled();
  });

  it('heals a crash between the commit and the transfer at the next start, paying once', async () => {
    const calls: string[] = [];
    // The process dies at the provider call: the payout row is committed, nothing reached the provider.
    const crashing = await createTestApp({
      payoutRetryMs: 0,
      payouts: providerOf({
        transfer: async (input) => {
          calls.push(input.idempotencyKey);
          throw new Error('process killed');
        },
        reverseTransfer: () => Promise.reject(new Error('process killed')),
        findTransfer: () => Promise.reject(new Error('process killed')),
      }),
    });
    try {
      const s = await orderInTransit(crashing);
      await makeAccountReady(crashing, s.seller.id);
      await makeAccountReady(crashing, s.driver.id);
      expect((await moveOrder(crashing, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
      const before = await payoutRows(crashing, s.order.id);
      expect(before.map((row) => row.status)).toEqual(['pending', 'pending']);
      expect(calls).toHaveLength(2);

      // The next start: the job queue asks for a retry run as soon as the app is ready.
      const restarted = await buildApp({
        config: crashing.config,
        database: crashing.database,
        sessionSecret: crypto.randomBytes(32).toString('hex'),
        storage: crashing.storage,
        payoutRetryMs: 60_000,
        jobQueue: { pollingIntervalSeconds: 0.5 },
      });
      try {
        await restarted.ready();
        await expect
          .poll(async () => (await payoutRows(crashing, s.order.id)).map((row) => row.status), {
            timeout: 20_000,
          })
          .toEqual(['paid', 'paid']);
      } finally {
        await restarted.close();
      }
      const transfers = await crashing.database.db
        .select()
        .from(testTransfers)
        .where(sql`${testTransfers.metadata}->>'orderId' = ${s.order.id}`);
      expect(transfers).toHaveLength(2);
      const report = await reconcile(crashing.database.db);
      expect(report.discrepancies).toEqual([]);
    } finally {
      await crashing.close();
    }
  });

  it('looks for a transfer whose answer was lost before paying again past the key window', async () => {
    const holder: { real?: TestPayoutTransfers } = {};
    const provider = () => {
      if (!holder.real) throw new Error('no provider yet');
      return holder.real;
    };
    // The transfer is made, but its answer never comes back.
    const lost = await createTestApp({
      payoutRetryMs: 0,
      payouts: providerOf({
        transfer: async (input) => {
          await provider().transfer(input);
          throw new PaymentProviderUnavailableError('connection reset');
        },
        reverseTransfer: (input) => provider().reverseTransfer(input),
        findTransfer: (input) => provider().findTransfer(input),
      }),
    });
    holder.real = new TestPayoutTransfers(lost.database.db);
    try {
      const s = await orderInTransit(lost);
      await makeAccountReady(lost, s.seller.id);
      expect((await moveOrder(lost, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
      const seller = (await payoutsOf(lost, s.order.id)).seller;
      expect(seller).toMatchObject({ status: 'pending', attempts: 1, lastError: 'connection reset' });

      let transferCalls = 0;
      const counting: PayoutTransfers = {
        transfer: (input) => {
          transferCalls += 1;
          return provider().transfer(input);
        },
        reverseTransfer: (input) => provider().reverseTransfer(input),
        findTransfer: (input) => provider().findTransfer(input),
      };
      const dayLater = () => new Date(Date.now() + 25 * 60 * 60 * 1000);
      const report = await retryPayouts({
        db: lost.database.db,
        payouts: counting,
        now: dayLater,
        log,
        siteUrl: lost.config.siteUrl,
      });
      expect(report.paid).toBe(1);
      expect(transferCalls).toBe(0);
      expect((await payoutsOf(lost, s.order.id)).seller?.status).toBe('paid');
      const rows = await lost.database.db
        .select()
        .from(testTransfers)
        .where(sql`${testTransfers.metadata}->>'orderId' = ${s.order.id}`);
      expect(rows).toHaveLength(1);
      expect((await reconcile(lost.database.db)).discrepancies).toEqual([]);
    } finally {
      await lost.close();
    }
  });
});

describe('the admin view of money (docs/decisions/0013-money-movement.md)', () => {
  it("shows the platform's balance and the payouts the provider refused", async () => {
    const refusing = await createTestApp({
      payoutRetryMs: 0,
      payouts: providerOf({
        transfer: () =>
          Promise.reject(new PayoutRefusedError('Your destination account needs the transfers capability')),
        reverseTransfer: () => Promise.reject(new Error('not used')),
        findTransfer: () => Promise.resolve(null),
      }),
    });
    try {
      const s = await orderInTransit(refusing);
      await makeAccountReady(refusing, s.seller.id);
      expect((await moveOrder(refusing, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
      const admin = await signedInAs(refusing, 'admin');
      const view = await as(refusing, admin, { method: 'GET', url: '/api/admin/payouts' });
      expect(view.statusCode).toBe(200);
      expect(view.json()).toMatchObject({ platformBalance: s.order.platformFee });
      expect(view.json().failed).toEqual([
        expect.objectContaining({
          orderId: s.order.id,
          kind: 'seller',
          status: 'failed',
          attempts: 1,
          lastError: 'Your destination account needs the transfers capability',
        }),
      ]);
      // The retry job waits for the backoff; once the account is fixed and ready again, the failed
      // payout goes out at once.
      const fixed = {
        db: refusing.database.db,
        payouts: new TestPayoutTransfers(refusing.database.db),
        now: () => new Date(),
        log,
        siteUrl: refusing.config.siteUrl,
      };
      expect(await settleOwedPayouts(fixed, s.seller.id)).toBe(0);
      expect(await settleOwedPayouts(fixed, s.seller.id, { accountBecameReady: true })).toBe(1);
      expect((await reconcile(refusing.database.db)).discrepancies).toEqual([]);
    } finally {
      await refusing.close();
    }
  });

  it('exports the ledger as CSV with a file name, formulas defused', async () => {
    const admin = await signedInAs(t, 'admin');
    const csv = await as(t, admin, { method: 'GET', url: '/api/admin/ledger.csv' });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(
      /^attachment; filename="ledger-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'id,created_at,kind,amount,currency,payment_id,order_id,user_id,refund_id,payout_id,provider_reference,entry_key',
    );
    const count = await t.database.db.$count(ledgerEntries);
    expect(lines).toHaveLength(count + 1);
    expect(lines.slice(1).every((line) => /^\d+,\d{4}-/.test(line))).toBe(true);
    const seller = await signedInAs(t, 'seller');
    expect((await as(t, seller, { method: 'GET', url: '/api/admin/ledger.csv' })).statusCode).toBe(403);
  });
});

function providerOf(transfers: PayoutTransfers): PayoutProvider {
  const unused = () => Promise.reject(new Error('payout accounts are not used in this test'));
  return {
    name: 'test',
    createAccount: unused,
    retrieveAccount: unused,
    createOnboardingLink: unused,
    createDashboardLink: unused,
    ...transfers,
  };
}

async function payoutRows(app: TestApp, orderId: string) {
  const rows = await payoutsOf(app, orderId);
  return [rows.seller, rows.driver].flatMap((row) => (row ? [row] : []));
}

/** What a refund of `amount` takes from a party earning `earnings` of `total`: rounded half up to the cent. */
const cents = (money: string | undefined) => Math.round(Number(money ?? '0') * 100);
const dollars = (value: number) => (value / 100).toFixed(2);

async function sharesOf(app: TestApp, orderId: string) {
  const rows = await app.database.db
    .select({ kind: payoutsTable.kind, reversal: payoutReversals })
    .from(payoutReversals)
    .innerJoin(payoutsTable, eq(payoutsTable.id, payoutReversals.payoutId))
    .where(eq(payoutsTable.orderId, orderId));
  return rows;
}

async function refund(app: TestApp, admin: TestUser, orderId: string, body: Record<string, unknown>) {
  return as(app, admin, {
    method: 'POST',
    url: `/api/admin/orders/${orderId}/refund`,
    payload: { reason: 'Partly damaged', ...body },
  });
}

describe('partial refunds, the return window and losses (docs/decisions/0018-money-against-stripe.md)', () => {
  it('splits a refund by items and then by amount between seller, driver and fee to the cent, and refuses more than is left', async () => {
    const s = await orderInTransit(t, {}, { price: '40.00' });
    await makeAccountReady(t, s.seller.id);
    await makeAccountReady(t, s.driver.id);
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    const admin = await signedInAs(t, 'admin');
    const total = cents(s.order.total);
    const seller = cents(s.order.sellerEarnings);
    const driver = cents(s.order.driverEarnings);
    const fee = cents(s.order.platformFee);
    expect(seller + driver + fee).toBe(total);

    const both = await refund(t, admin, s.order.id, { amount: '1.00', items: [] });
    expect(both.statusCode).toBe(400);
    const [item] = (await as(t, admin, { method: 'GET', url: `/api/orders/${s.order.id}/items` })).json<
      Array<{ id: string; price: string }>
    >();
    if (!item) throw new Error('no item');
    const tooMany = await refund(t, admin, s.order.id, { items: [{ orderItemId: item.id, quantity: 2 }] });
    expect(tooMany.statusCode).toBe(400);

    // By items: the item's price (40.00), split in proportion to the order.
    const byItems = await refund(t, admin, s.order.id, { items: [{ orderItemId: item.id, quantity: 1 }] });
    expect(byItems.statusCode, byItems.body).toBe(200);
    expect(byItems.json()).toMatchObject({ refundedAmount: '40.00', refundState: 'partially_refunded' });
    const first = 4000;
    const sellerFirst = Math.round((seller * first) / total);
    const driverFirst = Math.round((driver * first) / total);
    let shares = await sharesOf(t, s.order.id);
    expect(shares.map((row) => `${row.kind} ${row.reversal.amount} ${row.reversal.status}`).sort()).toEqual(
      [`driver ${dollars(driverFirst)} reversed`, `seller ${dollars(sellerFirst)} reversed`].sort(),
    );
    const reversals = (await transfersOf(s.order.id)).filter((row) => row.kind === 'reversal');
    expect(reversals.map((row) => row.amount).sort()).toEqual(
      [dollars(driverFirst), dollars(sellerFirst)].sort(),
    );
    const feeBack = (await ledgerOf(t, s.order.id)).filter((row) => row.kind === 'platform_fee_refund');
    expect(feeBack.map((row) => row.amount)).toEqual([dollars(first - sellerFirst - driverFirst)]);
    // Earnings and revenue are net of the refund, in proportion.
    const sellerNet = await as(t, s.seller, { method: 'GET', url: '/api/earnings/seller' });
    expect(sellerNet.json().totalEarnings).toBe(dollars(seller - sellerFirst));
    const weekly = await as(t, s.seller, { method: 'GET', url: '/api/earnings/seller/weekly' });
    expect(weekly.statusCode, weekly.body).toBe(200);
    expect(weekly.body).toContain(dollars(seller - sellerFirst));
    const sellerPayouts = await as(t, s.seller, { method: 'GET', url: '/api/payouts' });
    expect(sellerPayouts.json()).toMatchObject({
      paidOut: dollars(seller - sellerFirst),
      reversed: dollars(sellerFirst),
    });
    const driverNet = await as(t, s.driver, { method: 'GET', url: '/api/earnings/driver' });
    expect(driverNet.json().totalEarnings).toBe(dollars(driver - driverFirst));
    expect((await as(t, admin, { method: 'GET', url: '/api/admin/summary' })).statusCode).toBe(200);
    await expectReconciled();

    // More than is left: 409 with what is left; nothing written.
    const left = total - first;
    const beyond = await refund(t, admin, s.order.id, { amount: dollars(left + 1) });
    expect(beyond.statusCode).toBe(409);
    expect(beyond.json().message).toBe(`Only $${dollars(left)} of this order is left to refund.`);

    // By amount, then the rest without an amount: the whole earnings and fee are taken back exactly.
    expect((await refund(t, admin, s.order.id, { amount: '0.01' })).statusCode).toBe(200);
    const rest = await refund(t, admin, s.order.id, {});
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json()).toMatchObject({ refundedAmount: s.order.total, refundState: 'refunded' });
    shares = await sharesOf(t, s.order.id);
    const takenFrom = (kind: string) =>
      shares.filter((row) => row.kind === kind).reduce((sum, row) => sum + cents(row.reversal.amount), 0);
    expect([takenFrom('seller'), takenFrom('driver')]).toEqual([seller, driver]);
    const feeTotal = (await ledgerOf(t, s.order.id))
      .filter((row) => row.kind === 'platform_fee_refund')
      .reduce((sum, row) => sum + cents(row.amount), 0);
    expect(feeTotal).toBe(fee);
    const payouts = await payoutsOf(t, s.order.id);
    expect([payouts.seller?.status, payouts.driver?.status]).toEqual(['reversed', 'reversed']);
    const again = await refund(t, admin, s.order.id, { amount: '0.01' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(ORDER_ALREADY_REFUNDED);
    const mine = await as(t, s.seller, { method: 'GET', url: '/api/payouts' });
    expect(mine.json()).toMatchObject({ reversed: s.order.sellerEarnings });
    await expectReconciled();
  });

  it('within the return window a refund only reduces the unsent payouts; the rest goes out when the window ends', async () => {
    let clock = new Date();
    const held = await createTestApp({
      payoutRetryMs: 0,
      now: () => clock,
      env: { PAYOUT_HOLD_HOURS: '72' },
    });
    try {
      const s = await orderInTransit(held, {}, { price: '30.00' });
      await makeAccountReady(held, s.seller.id);
      await makeAccountReady(held, s.driver.id);
      expect((await moveOrder(held, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
      const jobDeps = {
        db: held.database.db,
        payouts: new TestPayoutTransfers(held.database.db),
        now: () => clock,
        log,
        siteUrl: held.config.siteUrl,
      };
      // Nothing goes out within the window, even when the retry job runs.
      expect(await retryPayouts(jobDeps)).toEqual({ paid: 0, reversed: 0, restored: 0 });
      const admin = await signedInAs(held, 'admin');
      const refunded = await refund(held, admin, s.order.id, { amount: '10.00' });
      expect(refunded.statusCode, refunded.body).toBe(200);
      const transfers = await held.database.db
        .select()
        .from(testTransfers)
        .where(sql`${testTransfers.metadata}->>'orderId' = ${s.order.id}`);
      expect(transfers).toEqual([]);
      const shares = await sharesOf(held, s.order.id);
      expect(shares.map((row) => row.reversal.status)).toEqual(['cancelled', 'cancelled']);
      const before = await payoutsOf(held, s.order.id);
      expect(before.seller?.status).toBe('pending');
      const sellerShare = shares.find((row) => row.kind === 'seller')?.reversal.amount;
      expect(cents(before.seller?.amount) + cents(sellerShare)).toBe(cents(s.order.sellerEarnings));
      expect((await reconcile(held.database.db)).discrepancies).toEqual([]);

      clock = new Date(clock.getTime() + 73 * 60 * 60 * 1000);
      expect(await retryPayouts(jobDeps)).toEqual({ paid: 2, reversed: 0, restored: 0 });
      const after = await payoutsOf(held, s.order.id);
      expect(after.seller).toMatchObject({ status: 'paid', amount: before.seller?.amount });
      const sent = await held.database.db
        .select()
        .from(testTransfers)
        .where(sql`${testTransfers.metadata}->>'orderId' = ${s.order.id}`);
      expect(sent.map((row) => row.kind)).toEqual(['transfer', 'transfer']);
      expect((await reconcile(held.database.db)).discrepancies).toEqual([]);
    } finally {
      await held.close();
    }
  });

  it('a reversal the provider refuses is an explicit loss: ledger, admin list, reconcile, and never tried again', async () => {
    const holder: { real?: TestPayoutTransfers } = {};
    let reversalCalls = 0;
    const provider = providerOf({
      transfer: (input) => (holder.real as TestPayoutTransfers).transfer(input),
      reverseTransfer: () => {
        reversalCalls += 1;
        return Promise.reject(
          new PayoutRefusedError('Stripe refused the transfer reversal: insufficient funds in the account'),
        );
      },
      findTransfer: (input) => (holder.real as TestPayoutTransfers).findTransfer(input),
    });
    const refusing = await createTestApp({ payoutRetryMs: 0, payouts: provider });
    holder.real = new TestPayoutTransfers(refusing.database.db);
    try {
      const s = await orderInTransit(refusing, {}, { price: '25.00' });
      await makeAccountReady(refusing, s.seller.id);
      await makeAccountReady(refusing, s.driver.id);
      expect((await moveOrder(refusing, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
      const admin = await signedInAs(refusing, 'admin');
      const refunded = await refund(refusing, admin, s.order.id, {});
      expect(refunded.statusCode, refunded.body).toBe(200);
      expect(reversalCalls).toBe(2);
      const shares = await sharesOf(refusing, s.order.id);
      expect(shares.map((row) => row.reversal.status)).toEqual(['unrecovered', 'unrecovered']);
      const ledger = await ledgerOf(refusing, s.order.id);
      const losses = ledger.filter((row) => row.kind === 'reversal_loss').map((row) => row.amount);
      expect(losses.sort()).toEqual([s.order.driverEarnings, s.order.sellerEarnings].sort());
      // The buyer was refunded all the same: the admin decided.
      expect(ledger.filter((row) => row.kind === 'refund').map((row) => row.amount)).toEqual([s.order.total]);

      const viewed = await as(refusing, admin, { method: 'GET', url: '/api/admin/payouts' });
      expect(viewed.statusCode, viewed.body).toBe(200);
      const view = viewed.json();
      expect(view.losses).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            orderId: s.order.id,
            orderNumber: s.order.orderNumber,
            kind: 'seller',
            amount: s.order.sellerEarnings,
            providerMessage: 'Stripe refused the transfer reversal: insufficient funds in the account',
          }),
        ]),
      );
      const loss = cents(s.order.sellerEarnings) + cents(s.order.driverEarnings);
      expect(view.platformBalance).toBe(dollars(-loss));

      const report = await reconcile(refusing.database.db);
      expect(report.discrepancies).toEqual([]);
      expect(report).toMatchObject({ lossesBorne: loss, lossCount: 2, reversalsInFlight: 0 });
      expect(formatReconcileReport(report)).toContain(`loss borne by the platform: $${dollars(loss)}`);

      // Never retried: the retry job finds nothing to reverse.
      const later = () => new Date(Date.now() + 48 * 60 * 60 * 1000);
      expect(
        await retryPayouts({
          db: refusing.database.db,
          payouts: provider,
          now: later,
          log,
          siteUrl: refusing.config.siteUrl,
        }),
      ).toEqual({
        paid: 0,
        reversed: 0,
        restored: 0,
      });
      expect(reversalCalls).toBe(2);
    } finally {
      await refusing.close();
    }
  });

  it('a reversal that could not reach the provider is made by the retry job, then the payout is reversed', async () => {
    let down = true;
    const holder: { real?: TestPayoutTransfers } = {};
    const flaky = await createTestApp({
      payoutRetryMs: 0,
      payouts: providerOf({
        transfer: (input) => (holder.real as TestPayoutTransfers).transfer(input),
        reverseTransfer: (input) =>
          down
            ? Promise.reject(new PaymentProviderUnavailableError('connection reset'))
            : (holder.real as TestPayoutTransfers).reverseTransfer(input),
        findTransfer: (input) => (holder.real as TestPayoutTransfers).findTransfer(input),
      }),
    });
    holder.real = new TestPayoutTransfers(flaky.database.db);
    try {
      const s = await orderInTransit(flaky, {}, { price: '20.00' });
      await makeAccountReady(flaky, s.seller.id);
      expect((await moveOrder(flaky, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
      const admin = await signedInAs(flaky, 'admin');
      expect((await refund(flaky, admin, s.order.id, { amount: '5.00' })).statusCode).toBe(200);
      let shares = await sharesOf(flaky, s.order.id);
      const sellerShare = shares.find((row) => row.kind === 'seller')?.reversal;
      expect(sellerShare).toMatchObject({ status: 'pending', attempts: 1, lastError: 'connection reset' });
      expect((await reconcile(flaky.database.db)).discrepancies).toEqual([]);
      down = false;
      const report = await retryPayouts({
        db: flaky.database.db,
        payouts: holder.real,
        now: () => new Date(),
        log,
        siteUrl: flaky.config.siteUrl,
      });
      expect(report.reversed).toBe(1);
      shares = await sharesOf(flaky, s.order.id);
      expect(shares.find((row) => row.kind === 'seller')?.reversal.status).toBe('reversed');
      expect((await reconcile(flaky.database.db)).discrepancies).toEqual([]);
    } finally {
      await flaky.close();
    }
  });
});
