import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { as, createTestApp, signedInAs, type TestApp, type TestUser } from '../../testing/test-app';
import {
  makeAccountReady,
  moveOrder,
  orderInTransit,
  verifiedDriver,
  type DeliveryScene,
} from '../../testing/payout-scenes';
import { ledgerEntries, orders, payouts } from '../../db/schema';
import { formatReconcileReport, reconcile } from './reconcile';
import { recordMovement } from './ledger.service';
import { settleOwedPayouts } from '../payouts/settle-payouts';
import { TestPayoutTransfers } from '../../adapters/payouts/test-payout-transfers';

const silent = { info: () => {}, warn: () => {}, error: () => {} };

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

const subjects = async () => (await reconcile(t.database.db)).discrepancies.map((d) => d.subject);

/**
 * reconcile's three checks (docs/decisions/0013-money-movement.md, Transfers and the ledger): a
 * marketplace moved only by its services reconciles; a movement planted by hand is found.
 */
describe('reconcile', () => {
  let delivered: DeliveryScene;

  beforeAll(async () => {
    delivered = await orderInTransit(t);
    await makeAccountReady(t, delivered.seller.id);
    await makeAccountReady(t, delivered.driver.id);
    expect((await moveOrder(t, delivered.driver, delivered.order.id, 'delivered')).statusCode).toBe(200);
    // And one still in transit: its money is held for it.
    await orderInTransit(t);
  });

  it('finds nothing in a marketplace moved by its services', async () => {
    const report = await reconcile(t.database.db);
    expect(report.discrepancies).toEqual([]);
    expect(report.finishedOrders).toBeGreaterThanOrEqual(1);
    expect(formatReconcileReport(report)).toMatch(/^OK: /);
  });

  it('finds a charge written twice, under another key', async () => {
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, delivered.order.id));
    const paymentId = order?.paymentId as string;
    await recordMovement(t.database.db, {
      kind: 'charge',
      key: `${paymentId}-again`,
      amount: 100,
      currency: 'usd',
      paymentId,
      at: new Date(),
    });
    const found = await subjects();
    expect(found).toContain(`payment ${paymentId}`);
    expect(found).toContain('platform');
    await t.database.db.execute(sql`alter table ledger_entries disable trigger ledger_entries_append_only`);
    await t.database.db.delete(ledgerEntries).where(eq(ledgerEntries.entryKey, `charge:${paymentId}-again`));
    await t.database.db.execute(sql`alter table ledger_entries enable trigger ledger_entries_append_only`);
    expect(await subjects()).toEqual([]);
  });

  it('finds a payout whose amount no longer matches the stored earnings', async () => {
    const [row] = await t.database.db
      .update(payouts)
      .set({ amount: sql`${payouts.amount} + 1` })
      .where(sql`${payouts.orderId} = ${delivered.order.id} and ${payouts.kind} = 'seller'`)
      .returning();
    expect(await subjects()).toContain(`order ${delivered.order.orderNumber as string}`);
    await t.database.db
      .update(payouts)
      .set({ amount: sql`${payouts.amount} - 1` })
      .where(eq(payouts.id, row?.id ?? ''));
    expect(await subjects()).toEqual([]);
  });

  it('finds a fee the platform never earned', async () => {
    await recordMovement(t.database.db, {
      kind: 'platform_fee',
      key: 'planted',
      amount: 1,
      currency: 'usd',
      at: new Date(),
    });
    expect(await subjects()).toEqual(['platform']);
    await t.database.db.execute(sql`alter table ledger_entries disable trigger ledger_entries_append_only`);
    await t.database.db.delete(ledgerEntries).where(eq(ledgerEntries.entryKey, 'platform_fee:planted'));
    await t.database.db.execute(sql`alter table ledger_entries enable trigger ledger_entries_append_only`);
  });

  it('keeps the ledger append-only: the database refuses to change or remove an entry', async () => {
    await expect(t.database.db.update(ledgerEntries).set({ amount: '0.01' })).rejects.toThrow();
    await expect(t.database.db.delete(ledgerEntries)).rejects.toThrow();
    expect(await subjects()).toEqual([]);
  });
});

type Step =
  | { kind: 'order'; price: number; seller: number; driver: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'deliver'; pick: number }
  | { kind: 'refund'; pick: number; part: number }
  | { kind: 'ready'; who: number }
  | { kind: 'commission'; rate: number };

// Orders and deliveries come often enough that refunds of finished orders happen in most runs.
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('order' as const),
      price: fc.integer({ min: 50, max: 90_000 }),
      seller: fc.nat(1),
      driver: fc.nat(1),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('deliver' as const), pick: fc.nat() }) },
  {
    weight: 3,
    // part 0 refunds all that is left; 1–99 that percentage of it (partial refunds, taken in proportion).
    arbitrary: fc.record({ kind: fc.constant('refund' as const), pick: fc.nat(), part: fc.nat(99) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('ready' as const), who: fc.nat(3) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('commission' as const),
      rate: fc.integer({ min: 200, max: 3000 }),
    }),
  },
);

describe('reconcile, property: random sequences of orders through the real services reconcile', () => {
  it('finds nothing after any sequence, and finds a discrepancy planted afterwards', async () => {
    const admin = await signedInAs(t, 'admin');
    const sellers: TestUser[] = [await signedInAs(t, 'seller'), await signedInAs(t, 'seller')];
    const drivers: TestUser[] = [await verifiedDriver(t), await verifiedDriver(t)];
    const buyer = await signedInAs(t, 'buyer');
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 10 }), async (steps) => {
        const open: DeliveryScene[] = [];
        const finished: DeliveryScene[] = [];
        const pick = <T>(list: T[], n: number) =>
          list.length ? list.splice(n % list.length, 1)[0] : undefined;
        for (const s of steps) {
          if (s.kind === 'order') {
            const seller = sellers[s.seller] as TestUser;
            const driver = drivers[s.driver] as TestUser;
            open.push(
              await orderInTransit(t, { buyer, seller, driver }, { price: (s.price / 100).toFixed(2) }),
            );
          } else if (s.kind === 'cancel') {
            const scene = pick(open, s.pick);
            if (scene) {
              const r = await as(t, admin, { method: 'POST', url: `/api/orders/${scene.order.id}/cancel` });
              expect(r.statusCode, r.body).toBe(200);
            }
          } else if (s.kind === 'deliver') {
            const scene = pick(open, s.pick);
            if (scene) {
              expect((await moveOrder(t, scene.driver, scene.order.id, 'delivered')).statusCode).toBe(200);
              finished.push(scene);
            }
          } else if (s.kind === 'refund') {
            // A partly refunded order stays among the finished ones and may be refunded again.
            const scene =
              s.part === 0 ? pick(finished, s.pick) : finished[s.pick % Math.max(finished.length, 1)];
            if (scene) {
              const seen = await as(t, admin, { method: 'GET', url: `/api/orders/${scene.order.id}` });
              const { total, refundedAmount } = seen.json<{ total: string; refundedAmount: string }>();
              const left = Math.round(Number(total) * 100) - Math.round(Number(refundedAmount) * 100);
              const amount = Math.max(1, Math.floor((left * s.part) / 100));
              const r = await as(t, admin, {
                method: 'POST',
                url: `/api/admin/orders/${scene.order.id}/refund`,
                payload: {
                  reason: 'Property test',
                  ...(s.part > 0 ? { amount: (amount / 100).toFixed(2) } : {}),
                },
              });
              expect(r.statusCode, r.body).toBe(left > 0 ? 200 : 409);
            }
          } else if (s.kind === 'ready') {
            const user = [...sellers, ...drivers][s.who] as TestUser;
            await makeAccountReady(t, user.id);
            await settleOwedPayouts(
              {
                db: t.database.db,
                payouts: new TestPayoutTransfers(t.database.db),
                now: () => new Date(),
                log: silent,
                siteUrl: t.config.siteUrl,
              },
              user.id,
            );
          } else {
            const rate = `0.${String(s.rate).padStart(4, '0')}`;
            const r = await as(t, admin, {
              method: 'PATCH',
              url: '/api/admin/commission-settings',
              payload: {
                baseCommissionRate: rate,
                minCommissionRate: '0.0200',
                salesPriceTierAmount: '500.00',
                salesPriceTierReduction: '0.0100',
                deliveryFeeTierAmount: '200.00',
                deliveryFeeTierReduction: '0.0100',
                loyaltyTierAmount: '1000.00',
                loyaltyTierReduction: '0.0100',
              },
            });
            expect(r.statusCode, r.body).toBe(200);
          }
        }
        const report = await reconcile(t.database.db);
        expect(report.discrepancies).toEqual([]);
      }),
      { numRuns: 15 },
    );
    // And a movement planted by hand is found.
    await recordMovement(t.database.db, {
      kind: 'transfer',
      key: 'planted',
      amount: 5,
      currency: 'usd',
      at: new Date(),
    });
    expect((await reconcile(t.database.db)).discrepancies.map((d) => d.subject)).toEqual(
      expect.arrayContaining(['payout (none)', 'platform']),
    );
  }, 300_000);
});
