import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../db/rows-of';
import { createTestApp, type TestApp } from '../testing/test-app';
import {
  CACHE_INVALIDATION,
  readTriggers,
  uncoveredSources,
  type CacheInvalidation,
  type TableTrigger,
} from './cache-invalidation';

/**
 * A kept answer is dropped only by a trigger's notice
 * (docs/decisions/0015-catalog-and-checkout-throughput.md, What invalidates what): every table and column a
 * cached answer shows must have a trigger that sends its cache's notice on every change that can alter it.
 */

const ALL = ['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE'] as const;

/** A small table of one cache, to try the check on. */
const SMALL: CacheInvalidation[] = [
  {
    cache: 'kept',
    module: 'src/server/platform/public-cache.ts',
    answers: ['a product card'],
    channel: 'kept_changed',
    notifyFunction: 'notify_kept',
    migrations: [],
    sources: [
      { table: 'products', events: ALL, shows: 'the row' },
      { table: 'users', events: ['UPDATE', 'DELETE'], columns: ['first_name', 'last_name'], shows: 'names' },
    ],
  },
];

const trigger = (table: string, overrides: Partial<TableTrigger> = {}): TableTrigger => ({
  table,
  name: `${table}_kept`,
  function: 'notify_kept',
  events: ALL,
  columns: [],
  mayNotFire: false,
  ...overrides,
});

const COVERING: TableTrigger[] = [
  trigger('products'),
  trigger('users', { events: ['UPDATE', 'DELETE'], columns: ['first_name', 'last_name'] }),
];

describe('uncoveredSources', () => {
  it('finds nothing when every event and column has a trigger', () => {
    expect(uncoveredSources(SMALL, COVERING)).toEqual([]);
    // Two triggers may share the work: one for INSERT and DELETE, one per column for UPDATE.
    expect(
      uncoveredSources(SMALL, [
        trigger('products', { events: ['INSERT', 'DELETE', 'TRUNCATE'] }),
        trigger('products', { name: 'products_update', events: ['UPDATE'] }),
        trigger('users', { events: ['DELETE', 'UPDATE'], columns: ['first_name'] }),
        trigger('users', { name: 'users_last', events: ['UPDATE'], columns: ['last_name', 'email'] }),
      ]),
    ).toEqual([]);
  });

  it('reports a table whose trigger was removed, with every event it needs', () => {
    expect(
      uncoveredSources(
        SMALL,
        COVERING.filter((t) => t.table !== 'products'),
      ),
    ).toEqual([{ cache: 'kept', table: 'products', events: ALL, columns: [] }]);
  });

  it('reports a column shown that the UPDATE OF list leaves out', () => {
    const narrowed = [
      trigger('products'),
      trigger('users', { events: ['UPDATE', 'DELETE'], columns: ['first_name'] }),
    ];
    expect(uncoveredSources(SMALL, narrowed)).toEqual([
      { cache: 'kept', table: 'users', events: [], columns: ['last_name'] },
    ]);
  });

  it('reports an event the trigger does not fire on', () => {
    const noTruncate = [
      trigger('products', { events: ['INSERT', 'UPDATE', 'DELETE'] }),
      ...COVERING.slice(1),
    ];
    expect(uncoveredSources(SMALL, noTruncate)).toEqual([
      { cache: 'kept', table: 'products', events: ['TRUNCATE'], columns: [] },
    ]);
  });

  it('does not count a trigger limited to columns for an answer that shows the whole row', () => {
    const limited = [trigger('products', { columns: ['name'] }), ...COVERING.slice(1)];
    expect(uncoveredSources(SMALL, limited)).toEqual([
      { cache: 'kept', table: 'products', events: ['UPDATE'], columns: [] },
    ]);
  });

  it("counts no trigger that calls another cache's function, is disabled or has a condition", () => {
    for (const wrong of [{ function: 'notify_other' }, { mayNotFire: true }]) {
      expect(uncoveredSources(SMALL, [trigger('products', wrong), ...COVERING.slice(1)])).toEqual([
        { cache: 'kept', table: 'products', events: ALL, columns: [] },
      ]);
    }
  });
});

describe('the migrated database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('has a trigger for every table, event and column that each cache shows', async () => {
    const triggers = await readTriggers(t.database.db);
    expect(uncoveredSources(CACHE_INVALIDATION, triggers)).toEqual([]);
    // The catalog read itself: migration 0010's seller-name trigger, as written there.
    expect(triggers).toContainEqual({
      table: 'users',
      name: 'users_catalog_changed',
      function: 'notify_catalog_changed',
      events: ['UPDATE', 'DELETE'],
      columns: ['first_name', 'last_name'],
      mayNotFire: false,
    });
  });

  it("has each cache's notify function send on the channel that cache listens on", async () => {
    for (const { notifyFunction, channel } of CACHE_INVALIDATION) {
      const [found] = await rowsOf<{ source: string }>(
        t.database.db,
        sql`select prosrc as source from pg_proc where proname = ${notifyFunction}`,
      );
      expect(found?.source, notifyFunction).toContain(`pg_notify('${channel}'`);
    }
  });

  it('has the foreign key that spares a table its TRUNCATE trigger, to a table whose trigger fires on it', async () => {
    for (const { cache, sources } of CACHE_INVALIDATION) {
      for (const { table, events, truncatedOnlyWith } of sources) {
        if (events.includes('TRUNCATE')) continue;
        // No TRUNCATE required must be explained by a table truncated with it.
        expect(truncatedOnlyWith, `${cache}: ${table}`).toBeDefined();
        const referencing = sources.find((source) => source.table === truncatedOnlyWith);
        expect(referencing?.events, `${cache}: ${table}`).toContain('TRUNCATE');
        const [key] = await rowsOf<{ n: number }>(
          t.database.db,
          sql`select count(*)::int as n from pg_constraint
            where contype = 'f' and conrelid = ${truncatedOnlyWith}::regclass and confrelid = ${table}::regclass`,
        );
        expect(key?.n, `${truncatedOnlyWith} references ${table}`).toBeGreaterThan(0);
      }
    }
  });

  it('reports a table as uncovered once its trigger is dropped or disabled, and a column once narrowed', async () => {
    const rollback = new Error('rolled back');
    let seen: ReturnType<typeof uncoveredSources> = [];
    await expect(
      t.database.db.transaction(async (tx) => {
        await tx.execute(sql`drop trigger products_catalog_changed on products`);
        await tx.execute(sql`alter table orders disable trigger orders_private_reads_changed`);
        await tx.execute(sql`drop trigger users_roles_catalog_changed on users`);
        seen = uncoveredSources(CACHE_INVALIDATION, await readTriggers(tx));
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(seen).toEqual([
      { cache: 'public catalog answers', table: 'products', events: ALL, columns: [] },
      { cache: 'public catalog answers', table: 'users', events: [], columns: ['roles'] },
      { cache: 'signed-in reads', table: 'orders', events: ALL, columns: [] },
    ]);
    // Rolled back: the triggers are there again.
    expect(uncoveredSources(CACHE_INVALIDATION, await readTriggers(t.database.db))).toEqual([]);
  });
});
