import { and, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAddress, createProduct } from '../testing/commerce';
import { createTestApp, signedInAs, TEST_DB_KIND, type TestApp } from '../testing/test-app';
import { builtOnce } from './built-once';
import { addresses, categories, products, users } from './schema';

const categoryNamed = builtOnce((db) =>
  db
    .select({ name: categories.name })
    .from(categories)
    .where(eq(categories.name, sql.placeholder('name')))
    .prepare(''),
);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('a statement built once (docs/decisions/0028-checkout-throughput.md, Statements built once)', () => {
  it("runs inside each transaction on that transaction's own connection", async () => {
    const { db } = t.database;
    // Each transaction adds a category it does not commit: only its own connection can see it.
    const found: string[][] = [];
    for (const name of ['Built Once One', 'Built Once Two', 'Built Once Three']) {
      await db.transaction(async (tx) => {
        await tx.insert(categories).values({ name });
        found.push((await categoryNamed(tx).execute({ name })).map((row) => row.name));
        await tx.delete(categories).where(eq(categories.name, name));
      });
    }
    expect(found).toEqual([['Built Once One'], ['Built Once Two'], ['Built Once Three']]);
    // Outside a transaction, on the pool: the categories were removed.
    expect(await categoryNamed(db).execute({ name: 'Built Once One' })).toEqual([]);
  });

  // The embedded database has one connection: its transactions never run side by side.
  it.runIf(TEST_DB_KIND === 'postgres')('keeps two transactions at once apart', async () => {
    const { db } = t.database;
    let secondSaw: string[] | undefined;
    await db.transaction(async (first) => {
      await first.insert(categories).values({ name: 'Only In First' });
      expect(await categoryNamed(first).execute({ name: 'Only In First' })).toEqual([
        { name: 'Only In First' },
      ]);
      // Another transaction, on another connection, while the first is still open.
      await db.transaction(async (second) => {
        secondSaw = (await categoryNamed(second).execute({ name: 'Only In First' })).map((row) => row.name);
      });
      await first.delete(categories).where(eq(categories.name, 'Only In First'));
    });
    expect(secondSaw).toEqual([]);
  });

  it("maps rows as drizzle's own select does: nested objects, decoded columns, a left join found or not", async () => {
    const { db } = t.database;
    const seller = await signedInAs(t, 'seller');
    const homeless = await signedInAs(t, 'seller');
    await createAddress(t, seller.id);
    const ids = [(await createProduct(t, seller.id)).id, (await createProduct(t, homeless.id)).id];
    const home = alias(addresses, 'home');
    // Whole rows, picked columns, a nested pick of a left-joined table, an expression.
    const select = (on: typeof db) =>
      on
        .select({
          product: products,
          sellerName: users.firstName,
          home: { id: home.id, city: home.city, latitude: home.latitude, createdAt: home.createdAt },
          wholeHome: home,
          doubled: sql<number>`${products.stock} * 2`.mapWith(Number),
        })
        .from(products)
        .innerJoin(users, eq(users.id, products.sellerId))
        .leftJoin(home, and(eq(home.userId, products.sellerId), eq(home.isPrimary, true)));
    const once = builtOnce((on) =>
      select(on)
        .where(sql`${products.id} = any(${sql.placeholder('ids')}::uuid[])`)
        .orderBy(products.name)
        .prepare(''),
    );
    const mapped = await once(db).execute({ ids });
    const drizzles = await select(db).where(inArray(products.id, ids)).orderBy(products.name);
    expect(mapped).toEqual(drizzles);
    expect(mapped.map((row) => row.home === null)).toEqual(drizzles.map((row) => row.home === null));
    expect(mapped.filter((row) => row.home === null)).toHaveLength(1);
    expect(mapped.find((row) => row.home !== null)?.home?.createdAt).toBeInstanceOf(Date);
  });
});
