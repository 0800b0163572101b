import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { createTestApp, signedInAs, TEST_DB_KIND, type TestApp } from '../../testing/test-app';
import { untilSomeoneWaitsForALock } from '../../testing/lock-wait';
import {
  confirm,
  startedPaymentFor,
  createAddress,
  createProduct,
  paymentRow,
  startPayment,
  stockOf,
  type PaymentJson,
} from '../../testing/commerce';
import { commissionSettings, ledgerEntries, orders, products } from '../../db/schema';

/**
 * What a paid confirmation costs the database (docs/decisions/0025-checkout-statements.md): the
 * statements the server sends, counted as the pg driver submits them (PostgreSQL only: the embedded
 * database of the tests is not reached through the pg driver), and the books that must still hold.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  expect(t.statuses.filter((s) => s >= 500)).toEqual([]);
});

/** What `call` answers, and the statements the server submitted meanwhile (begin and commit too: each is a pg Query). */
async function counted<T>(call: () => Promise<T>): Promise<{ answer: T; statements: number }> {
  const submitted = vi.spyOn(pg.Query.prototype, 'submit');
  try {
    const answer = await call();
    return { answer, statements: submitted.mock.calls.length };
  } finally {
    submitted.mockRestore();
  }
}

describe('a paid confirmation', () => {
  it.skipIf(TEST_DB_KIND !== 'postgres')(
    'makes its order in 4 statements: one reads the payment with the commission, one claims it, keeps the fee, writes the charge, takes the stock and inserts the order that announces itself',
    async () => {
      const { product, buyer, paymentId } = await startedPaymentFor(t, { stock: 5, quantity: 2 });

      const { answer: confirmed, statements } = await counted(() => confirm(t, buyer, paymentId));

      expect(confirmed.statusCode).toBe(200);
      expect(confirmed.json<{ orders: unknown[] }>().orders).toHaveLength(1);
      // The session (or, on PostgreSQL, the fence that lets its kept user answer), the payment with
      // the commission settings and the seller's sales, the test card's charge, then one statement
      // without a transaction of its own: the claim (with the ledger's charge and the fee), the
      // stock, the order with its live events: 4 (17, then 12 with the live events' savepoint,
      // insert and release, then 9 with the stock and the commission read on their own, then 7 with
      // begin, the claim and the order apart and commit, before).
      expect(statements).toBeLessThanOrEqual(4);
      // The books as before: the stock taken, the fee known, the charge in the ledger once.
      expect(await stockOf(t, product.id)).toBe(3);
      const payment = await paymentRow(t, paymentId);
      expect(payment?.providerFee).toBe('0.00');
      const charges = await t.database.db
        .select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.paymentId, paymentId), eq(ledgerEntries.kind, 'charge')));
      expect(charges.map((entry) => entry.amount)).toEqual([payment?.amount]);
    },
  );
});

describe('a payment started', () => {
  it.skipIf(TEST_DB_KIND !== 'postgres')(
    "is 3 statements: the buyer's open payments are read with the products, and a reload still finds its own",
    async () => {
      const seller = await signedInAs(t, 'seller');
      await createAddress(t, seller.id);
      const product = await createProduct(t, seller.id, { price: '25.00', stock: 5 });
      const buyer = await signedInAs(t, 'buyer');
      const address = await createAddress(t, buyer.id);
      const body = {
        items: [{ productId: product.id, quantity: 1 }],
        isPickup: false,
        deliveryAddressId: address.id,
      };
      // An open payment of another checkout of the same buyer is not this one's.
      const other = await startPayment(t, buyer, {
        ...body,
        items: [{ productId: product.id, quantity: 2 }],
      });
      expect(other.statusCode).toBe(201);

      const { answer: started, statements } = await counted(() => startPayment(t, buyer, body));
      expect(started.statusCode).toBe(201);
      // The session's fence, the products with the buyer's open payments, the insert.
      expect(statements).toBeLessThanOrEqual(3);
      const first = started.json<PaymentJson>().paymentId;
      expect(first).not.toBe(other.json<PaymentJson>().paymentId);

      // A reload of the payment screen answers the same payment: its key was among the open ones,
      // so it is read (and its provider asked), never inserted again and found by the race.
      const { answer: again, statements: reloaded } = await counted(() => startPayment(t, buyer, body));
      expect(again.statusCode).toBe(201);
      expect(reloaded).toBeLessThanOrEqual(4);
      expect(again.json<PaymentJson>().paymentId).toBe(first);
    },
  );
});

describe('the stock a confirmation takes', () => {
  it.skipIf(TEST_DB_KIND !== 'postgres')(
    'is the stock as locked: a restock committed while the claim waited for the product is sold, not refunded',
    async () => {
      const { product, buyer, paymentId } = await startedPaymentFor(t, { stock: 1, quantity: 1 });
      // The last unit went elsewhere; then the seller restocks, in a transaction that holds the
      // product's row while the buyer's card goes through.
      await t.database.db.update(products).set({ stock: 0 }).where(eq(products.id, product.id));
      let confirming: ReturnType<typeof confirm> | undefined;
      await t.database.db.transaction(async (tx) => {
        await tx.update(products).set({ stock: 2 }).where(eq(products.id, product.id));
        confirming = confirm(t, buyer, paymentId);
        // Commits once the confirmation's statement waits for the product's lock.
        await untilSomeoneWaitsForALock(t, 'the confirmation');
      });
      const confirmed = await confirming;
      expect(confirmed?.statusCode).toBe(200);
      expect(confirmed?.json<{ orders: unknown[] }>().orders).toHaveLength(1);
      expect(await stockOf(t, product.id)).toBe(1);
      expect(await paymentRow(t, paymentId)).toMatchObject({ status: 'succeeded' });
    },
  );
});

describe('a paid confirmation without the commission settings row', () => {
  it('prices the order with the default settings, as before the row was written', async () => {
    const [kept] = await t.database.db.delete(commissionSettings).returning();
    try {
      const { buyer, paymentId } = await startedPaymentFor(t, { stock: 3, quantity: 1 });
      const confirmed = await confirm(t, buyer, paymentId);
      expect(confirmed.statusCode).toBe(200);
      const [order] = await t.database.db.select().from(orders).where(eq(orders.paymentId, paymentId));
      // The defaults (docs/rules/money.md, Fees and commission): 10% of a 25.00 item.
      expect(order).toMatchObject({ salesCommissionRate: '0.1000', purchasePlatformFee: '2.50' });
    } finally {
      if (kept) await t.database.db.insert(commissionSettings).values(kept);
    }
  });
});
