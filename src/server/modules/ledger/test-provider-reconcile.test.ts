import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { testTransfers } from '../../db/schema';
import { as, createTestApp, signedInAs, type TestApp } from '../../testing/test-app';
import { makeAccountReady, moveOrder, orderInTransit, payoutsOf } from '../../testing/payout-scenes';
import { TestPaymentProvider } from '../../adapters/payments/test-payment-provider';
import { reconcile } from './reconcile';
import { reconcileWithProvider } from './provider-reconcile';

/**
 * Reconcile against the built-in test provider (docs/decisions/0018-money-against-stripe.md): its
 * own records (charged payments, refunds made, `test_transfers`) are the provider's balance.
 */
let t: TestApp;
let provider: TestPaymentProvider;

beforeAll(async () => {
  t = await createTestApp({ payoutRetryMs: 0 });
  provider = new TestPaymentProvider(t.database.db);
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

const HOUR = 60 * 60 * 1000;
async function discrepancies(): Promise<string[]> {
  const report = await reconcileWithProvider(t.database.db, provider, {
    from: new Date(Date.now() - HOUR),
    to: new Date(Date.now() + HOUR),
  });
  if (report.kind !== 'compared') throw new Error(report.message);
  return report.discrepancies;
}

describe('reconcile against the built-in test provider', () => {
  it('is clean after payouts and a refund, then names a transfer made twice and one never made', async () => {
    const s = await orderInTransit(t);
    await makeAccountReady(t, s.seller.id);
    await makeAccountReady(t, s.driver.id);
    expect((await moveOrder(t, s.driver, s.order.id, 'delivered')).statusCode).toBe(200);
    const other = await orderInTransit(t);
    await makeAccountReady(t, other.seller.id);
    await makeAccountReady(t, other.driver.id);
    expect((await moveOrder(t, other.driver, other.order.id, 'delivered')).statusCode).toBe(200);
    const admin = await signedInAs(t, 'admin');
    const refunded = await as(t, admin, {
      method: 'POST',
      url: `/api/admin/orders/${other.order.id}/refund`,
      payload: { reason: 'Damaged' },
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(await discrepancies()).toEqual([]);

    const { seller, driver } = await payoutsOf(t, s.order.id);
    if (!seller?.providerTransferId || !driver?.providerTransferId) throw new Error('not paid out');
    const [made] = await t.database.db
      .select()
      .from(testTransfers)
      .where(eq(testTransfers.id, seller.providerTransferId));
    if (!made) throw new Error('no transfer');
    const twice = `ttr_${crypto.randomBytes(12).toString('hex')}`;
    await t.database.db
      .insert(testTransfers)
      .values({ ...made, id: twice, idempotencyKey: `${made.idempotencyKey}-again`, createdAt: new Date() });
    await t.database.db.delete(testTransfers).where(eq(testTransfers.id, driver.providerTransferId));
    expect(await discrepancies()).toEqual(
      [
        `transfer ${twice} $${seller.amount} at the provider is not in the ledger`,
        `ledger transfer:${driver.id} ${driver.providerTransferId} $${driver.amount} is not at the provider`,
      ].sort(),
    );
    expect((await reconcile(t.database.db)).discrepancies).toEqual([]);
  });
});
