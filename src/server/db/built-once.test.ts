import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_DB_KIND, type TestApp } from '../testing/test-app';
import { builtOnce } from './built-once';
import { categories } from './schema';

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
});
