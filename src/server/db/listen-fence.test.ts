import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { openDatabase, type Database, type StopListening } from './client';
import { createPostgresDatabase, TEST_DB_KIND } from '../testing/test-app';

/**
 * The fence of a listening connection on PostgreSQL (docs/decisions/0029-signed-in-reads-kept.md,
 * The fence): once it answers true, every notification committed before it was asked has been
 * handled, whoever sent it; callers that ask at once share a statement; a connection that is gone
 * answers false until it is made again.
 */
describe.skipIf(TEST_DB_KIND !== 'postgres')('a fence on the listening connection', () => {
  let drop = async () => {};
  let database: Database;
  let writer: pg.Client;
  let stop: StopListening;
  const heard: string[] = [];
  let reconnected = 0;

  beforeAll(async () => {
    const created = await createPostgresDatabase();
    drop = created.drop;
    database = await openDatabase({ databaseUrl: created.url });
    // Another instance's connection: its notifications reach this one only through the database.
    writer = new pg.Client({ connectionString: created.url });
    await writer.connect();
    stop = await database.listen('fence_test', {
      onNotify: (payload) => heard.push(payload),
      onReconnect: () => reconnected++,
    });
  });
  afterAll(async () => {
    await stop();
    await writer.end();
    await database.close();
    await drop();
  });

  it('has heard every notification committed before it was asked', async () => {
    const fence = stop.fence;
    if (!fence) throw new Error('no fence on PostgreSQL');
    for (let i = 0; i < 200; i++) {
      await writer.query(`select pg_notify('fence_test', $1)`, [String(i)]);
      expect(await fence()).toBe(true);
      expect(heard.at(-1)).toBe(String(i));
    }
  });

  it('answers many callers at once with a statement or two', async () => {
    const fence = stop.fence!;
    const submitted = vi.spyOn(pg.Query.prototype, 'submit');
    const answers = await Promise.all(Array.from({ length: 50 }, () => fence()));
    const statements = submitted.mock.calls.length;
    submitted.mockRestore();
    expect(answers.every(Boolean)).toBe(true);
    expect(statements).toBeLessThanOrEqual(2);
  });

  it('answers false while its connection is gone, and true again once it is made again', async () => {
    const fence = stop.fence!;
    const { rows } = await writer.query<{ pid: number }>(
      `select pid from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid()
         and (query like 'SET synchronous_commit%' or query like 'select pg_notify(''fence_%')`,
    );
    expect(rows).toHaveLength(1);
    const before = reconnected;
    await writer.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
    // A notification sent while nobody listens is never heard: the fence must not say otherwise.
    await writer.query(`select pg_notify('fence_test', 'while gone')`);
    await vi.waitFor(async () => expect(await fence()).toBe(false), { timeout: 5_000 });
    await vi.waitFor(() => expect(reconnected).toBe(before + 1), { timeout: 10_000, interval: 100 });
    expect(await fence()).toBe(true);
  });
});
