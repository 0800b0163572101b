import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, migrateDatabase, openDatabase } from './client';
import { createTestApp, createUser, TEST_DB_KIND } from '../testing/test-app';
import { rowsOf } from './rows-of';
import { categories, products, reviews, users } from './schema';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe.runIf(TEST_DB_KIND === 'pglite')('the embedded database lock', () => {
  it('refuses to open a data directory that a live process holds', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-lock-'));
    dirs.push(dir);
    // Another live process (a sleeping child) owns the lock.
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      fs.writeFileSync(path.join(dir, 'db.lock'), String(child.pid));
      await expect(openDatabase({ dataDir: dir })).rejects.toThrow(DataDirLockedError);
      await expect(openDatabase({ dataDir: dir })).rejects.toThrow(
        /already in use by another marketplace process/,
      );
    } finally {
      child.kill();
    }
  });

  it('takes over a lock left by a process that is gone, and releases it on close', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-lock-'));
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, 'db.lock'), '999999');
    const database = await openDatabase({ dataDir: dir });
    expect(fs.readFileSync(path.join(dir, 'db.lock'), 'utf8')).toBe(String(process.pid));
    await migrateDatabase(database);
    await database.close();
    expect(fs.existsSync(path.join(dir, 'db.lock'))).toBe(false);
  });
});

describe.runIf(TEST_DB_KIND === 'postgres')('statements on PostgreSQL', () => {
  it('prepares a repeated statement once on its connection and runs it again by name', async () => {
    const t = await createTestApp();
    try {
      const [category] = await t.database.db.select({ name: categories.name }).from(categories).limit(1);
      const names = await t.database.db.transaction(async (tx) => {
        const read = () =>
          tx
            .select({ name: categories.name })
            .from(categories)
            .where(eq(categories.name, category?.name ?? ''));
        for (let i = 0; i < 3; i++) expect(await read()).toEqual([category]);
        const prepared = await rowsOf<{ name: string }>(
          tx,
          sql`select name from pg_prepared_statements where statement like ${'select "name" from "categories" where%'}`,
        );
        return prepared.map((row) => row.name);
      });
      expect(names).toHaveLength(1);
      expect(names[0]).toMatch(/^s\d+$/);
    } finally {
      await t.close();
    }
  });
});

describe('migrating', () => {
  it('vacuums a table of some size that has nothing all-visible (as a rewrite leaves it), and leaves it so', async () => {
    const t = await createTestApp();
    try {
      const allVisible = async () =>
        (
          await rowsOf<{ pages: number }>(
            t.database.db,
            sql`select relallvisible::int as pages from pg_class where oid = 'rewritten_probe'::regclass`,
          )
        )[0]?.pages;
      await t.database.db.execute(
        sql`create table rewritten_probe as select i, md5(i::text) as label from generate_series(1, 20000) i`,
      );
      await t.database.db.execute(sql`analyze rewritten_probe`);
      expect(await allVisible()).toBe(0);
      await migrateDatabase(t.database);
      expect(await allVisible()).toBeGreaterThan(0);
    } finally {
      await t.close();
    }
  });
});

describe('constraints that protect the data', () => {
  it('keeps emails and category names unique regardless of case', async () => {
    const t = await createTestApp();
    try {
      const user = await createUser(t, { email: 'same@example.com' });
      expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
      await expect(t.database.db.insert(users).values({ email: 'SAME@example.com' })).rejects.toThrow();
      await expect(t.database.db.insert(categories).values({ name: 'electronics' })).rejects.toThrow();
    } finally {
      await t.close();
    }
  });

  it('never lets stock go below zero, ratings leave 1–5, or a role outside the granted ones', async () => {
    const t = await createTestApp();
    try {
      const seller = await createUser(t, { roles: ['buyer', 'seller'] });
      await expect(
        t.database.db
          .insert(products)
          .values({ sellerId: seller.id, name: 'X', price: '1.00', category: 'Books', stock: -1 }),
      ).rejects.toThrow();
      await expect(
        t.database.db.insert(users).values({ email: 'r@example.com', role: 'admin' }),
      ).rejects.toThrow();
      await expect(
        t.database.db.insert(reviews).values({
          orderId: '00000000-0000-4000-8000-000000000000',
          reviewerId: seller.id,
          revieweeId: seller.id,
          reviewerRole: 'buyer',
          revieweeRole: 'seller',
          rating: 6,
        }),
      ).rejects.toThrow();
    } finally {
      await t.close();
    }
  });
});
