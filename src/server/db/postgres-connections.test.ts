import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './client';
import type { DatabaseTimeouts } from './postgres-connections';
import { isTransientDatabaseError } from '../platform/errors';
import { startFaultProxy, type FaultProxy } from '../testing/fault-proxy';
import { createPostgresDatabase, TEST_DB_KIND } from '../testing/test-app';

/**
 * PostgreSQL reached through a proxy that resets, cuts and heals (docs/operations.md, Database
 * faults): no error of a connection ends the process, a statement never waits past its timeouts,
 * and the pool serves again once the database can be reached, without a restart.
 */

/** Short timeouts, so that a silent database shows in seconds. */
const TIMEOUTS: DatabaseTimeouts = {
  connectMs: 1_000,
  statementMs: 1_000,
  readMs: 1_500,
  idleInTransactionMs: 5_000,
  keepAliveDelayMs: 1_000,
};

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await check().catch(() => false)) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** How a promise ended, and after how long. */
async function outcome(work: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = Date.now();
  try {
    await work;
    return { error: undefined, ms: Date.now() - started };
  } catch (error) {
    return { error, ms: Date.now() - started };
  }
}

describe.runIf(TEST_DB_KIND === 'postgres')('PostgreSQL connections through faults', () => {
  let target: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let proxy: FaultProxy;
  let database: Database;
  const connectionErrors: string[] = [];

  beforeAll(async () => {
    target = await createPostgresDatabase();
    const url = new URL(target.url);
    proxy = await startFaultProxy({ host: url.hostname, port: Number(url.port || 5432) });
    database = await openDatabase({
      databaseUrl: proxy.urlThrough(target.url),
      timeouts: TIMEOUTS,
      onError: (error) => connectionErrors.push(error.message),
    });
  });
  afterAll(async () => {
    await database?.close();
    await proxy?.close();
    await target?.drop();
  });

  /** Fills the pool with a few connections, so that some are idle when a fault comes. */
  const warm = () =>
    Promise.all(Array.from({ length: 4 }, () => database.db.execute(sql`select pg_sleep(0.05)`)));

  it('fails a transaction whose connection is reset, and serves again once the database is back', async () => {
    proxy.setMode('pass');
    await warm();
    const inTransaction = outcome(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await tx.execute(sql`select pg_sleep(2)`);
      }),
    );
    // The transaction's connection is in use when the reset comes: its error must not be unheard.
    await waitFor(async () => proxy.counts().forwarding > 0, 'connections through the proxy');
    await new Promise((resolve) => setTimeout(resolve, 200));
    proxy.setMode('reset');
    const failed = await inTransaction;
    expect(failed.error).toBeDefined();
    expect(isTransientDatabaseError(failed.error)).toBe(true);

    const whileReset = await outcome(database.ping());
    expect(isTransientDatabaseError(whileReset.error)).toBe(true);
    expect(whileReset.ms).toBeLessThan(TIMEOUTS.connectMs + 1_000);

    proxy.setMode('pass');
    await waitFor(() => database.ping().then(() => true), 'the pool to serve again');
    for (let i = 0; i < 10; i++) await database.ping();
    expect(connectionErrors.length).toBeGreaterThan(0);
  });

  it('gives up on a silent database within its timeouts, and replaces the connections that stalled', async () => {
    proxy.setMode('pass');
    await warm();
    proxy.setMode('cut');

    // A statement on a pooled connection that went silent: the read timeout ends it.
    const statement = await outcome(database.db.execute(sql`select 1`));
    expect(isTransientDatabaseError(statement.error)).toBe(true);
    expect(statement.ms).toBeLessThan(TIMEOUTS.readMs + 1_000);

    // A transaction: its rollback does not wait a second timeout behind the lost answer.
    const transaction = await outcome(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
      }),
    );
    expect(isTransientDatabaseError(transaction.error)).toBe(true);
    expect(transaction.ms).toBeLessThan(TIMEOUTS.readMs + 800);

    // New connections come back; those that stalled stay dead, and the pool must not use them.
    proxy.setMode('heal-new');
    await waitFor(() => database.ping().then(() => true), 'the pool to serve again');
    for (let i = 0; i < 10; i++) {
      const ping = await outcome(
        Promise.all([database.ping(), database.db.transaction((tx) => tx.execute(sql`select 1`))]),
      );
      expect(ping.error).toBeUndefined();
    }
    expect(proxy.counts().stalled).toBeGreaterThan(0);
  });
});
