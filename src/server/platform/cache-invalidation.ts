import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows-of';
import { PRIVATE_READS_CHANNEL } from './kept-private-reads';
import { CATALOG_CHANNEL } from './public-cache';

/**
 * Every answer the server keeps in memory, and the database triggers that drop it
 * (docs/decisions/0015-catalog-and-checkout-throughput.md, What invalidates what). A kept answer is
 * dropped only by a NOTIFY sent from a trigger, which the code that changes a table never sees: this
 * table says, for each cache, which tables its answers show, which statements on each must send its
 * notice, and, where a trigger may be limited to columns (`UPDATE OF`), which columns the answers
 * show. It is read off the cached queries, not off the triggers; `cache-invalidation.test.ts` checks
 * the database's triggers against it, so a trigger dropped or narrowed fails a test. A query that
 * comes to show another table or column must add it here (and its trigger, in a migration).
 */

export type TriggerEvent = 'INSERT' | 'UPDATE' | 'DELETE' | 'TRUNCATE';

/** One table a cache's answers show. */
export interface CachedSource {
  readonly table: string;
  /** The statements on it that can change a kept answer: each must send the cache's notice. */
  readonly events: readonly TriggerEvent[];
  /**
   * The columns the answers show, when an UPDATE trigger may be limited to them; absent, any
   * UPDATE must send the notice (the answers show the whole row, or the trigger is not limited).
   */
  readonly columns?: readonly string[];
  /** What the answers show of it, and why an event is left out. */
  readonly shows: string;
  /**
   * Why TRUNCATE is not required: this table cannot be truncated without that one, which has a
   * foreign key to it (TRUNCATE refuses, or cascades there and fires that table's trigger).
   */
  readonly truncatedOnlyWith?: string;
}

export interface CacheInvalidation {
  readonly cache: string;
  /** The module that keeps the answers. */
  readonly module: string;
  /** The answers kept, by the function or route that builds them. */
  readonly answers: readonly string[];
  /** The channel the cache listens on, and the trigger function that notifies it. */
  readonly channel: string;
  readonly notifyFunction: string;
  /** The migrations that create the function and its triggers. */
  readonly migrations: readonly string[];
  readonly sources: readonly CachedSource[];
}

const EVERY_EVENT: readonly TriggerEvent[] = ['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE'];

export const CACHE_INVALIDATION: readonly CacheInvalidation[] = [
  {
    cache: 'public catalog answers',
    module: 'src/server/platform/public-cache.ts',
    answers: [
      'categoriesAnswer (GET /api/categories)',
      'browseProductsAnswer (GET /api/products)',
      'browseProductsByDistanceAnswer (GET /api/products/with-distance)',
      'visitorProductAnswer (GET /api/products/:id as a visitor)',
      'GET /api/reviews/user/:id (getUserReviews)',
      'pickupSlotsAnswer (GET /api/availability/slots/:sellerId)',
      "a visitor's first-screen page (web-app.ts), made of the answers above",
    ],
    channel: CATALOG_CHANNEL,
    notifyFunction: 'notify_catalog_changed',
    migrations: ['0010_catalog_change_notices.sql', '0024_more_catalog_change_notices.sql'],
    sources: [
      { table: 'products', events: EVERY_EVENT, shows: 'the whole row on every card and product page' },
      { table: 'reviews', events: EVERY_EVENT, shows: "a seller's rating on cards; a user's reviews" },
      {
        table: 'addresses',
        events: EVERY_EVENT,
        shows: "a seller's primary city, state and coordinates (place and distance on cards)",
      },
      { table: 'categories', events: EVERY_EVENT, shows: 'the list of categories' },
      { table: 'product_images', events: EVERY_EVENT, shows: "a product page's extra images" },
      {
        table: 'availability_schedules',
        events: EVERY_EVENT,
        shows: "a seller's active weekly schedule (slots)",
      },
      { table: 'blackout_dates', events: EVERY_EVENT, shows: "a seller's blackout dates (slots)" },
      {
        table: 'users',
        events: ['UPDATE', 'DELETE'],
        columns: ['first_name', 'last_name', 'roles'],
        shows:
          "a seller's or reviewer's name, whether a seller may offer pickups (roles), whether a user " +
          'exists. No INSERT: a user who does not exist is a 404, never kept',
        truncatedOnlyWith: 'products',
      },
    ],
  },
  {
    cache: 'signed-in reads',
    module: 'src/server/platform/kept-private-reads.ts',
    answers: [
      "the session's user (loadActor in sessions.ts; GET /api/auth/user and every signed-in request)",
      'own orders as sent (GET /api/orders in orders.routes.ts, by user, view, limit and offset)',
    ],
    channel: PRIVATE_READS_CHANNEL,
    notifyFunction: 'notify_private_reads_changed',
    migrations: ['0025_private_read_notices.sql'],
    sources: [
      {
        table: 'sessions',
        events: ['UPDATE', 'DELETE', 'TRUNCATE'],
        shows: 'a session and when it ends. No INSERT: a session that does not exist is never kept',
      },
      {
        table: 'users',
        events: ['UPDATE', 'DELETE'],
        shows:
          "the session's whole user row, which also decides which orders and prices a list shows. " +
          'No INSERT: a new user has no session nor orders yet',
        truncatedOnlyWith: 'sessions',
      },
      { table: 'orders', events: EVERY_EVENT, shows: 'the whole row of each order listed' },
      { table: 'order_items', events: EVERY_EVENT, shows: "an order's number of units" },
      { table: 'refunds', events: EVERY_EVENT, shows: "an order's refunds and the sum refunded" },
      { table: 'disputes', events: EVERY_EVENT, shows: "the dispute of an order's payment" },
      {
        table: 'addresses',
        events: EVERY_EVENT,
        shows:
          "an order's pickup address, and the place of the session's user's primary address " +
          '(a new address may be made primary)',
      },
    ],
  },
];

/** A trigger as the catalog describes it (`readTriggers`). */
export interface TableTrigger {
  readonly table: string;
  readonly name: string;
  readonly function: string;
  readonly events: readonly TriggerEvent[];
  /** The columns of `UPDATE OF`; empty when any UPDATE fires it. */
  readonly columns: readonly string[];
  /** Disabled (`ALTER TABLE … DISABLE TRIGGER`) or with a WHEN condition: it may not fire. */
  readonly mayNotFire: boolean;
}

/** What a cache needs of a table that no trigger sends. */
export interface UncoveredSource {
  readonly cache: string;
  readonly table: string;
  readonly events: readonly TriggerEvent[];
  /** Columns shown whose UPDATE sends nothing (when some UPDATE trigger covers others). */
  readonly columns: readonly string[];
}

/**
 * The tables whose changes would not drop what a cache keeps: for each source, the required events
 * that no trigger calling the cache's notify function fires on, and for UPDATE the columns none
 * covers. A trigger that may not fire covers nothing.
 */
export function uncoveredSources(
  table: readonly CacheInvalidation[],
  triggers: readonly TableTrigger[],
): UncoveredSource[] {
  const uncovered: UncoveredSource[] = [];
  for (const entry of table) {
    for (const source of entry.sources) {
      const notifying = triggers.filter(
        (trigger) =>
          trigger.table === source.table && trigger.function === entry.notifyFunction && !trigger.mayNotFire,
      );
      const firesOn = (event: TriggerEvent) => notifying.filter((trigger) => trigger.events.includes(event));
      const events = source.events.filter((event) => firesOn(event).length === 0);
      let columns: string[] = [];
      if (source.events.includes('UPDATE') && !events.includes('UPDATE')) {
        const onUpdate = firesOn('UPDATE');
        if (!onUpdate.some((trigger) => trigger.columns.length === 0)) {
          if (source.columns === undefined) events.push('UPDATE');
          else columns = source.columns.filter((column) => !onUpdate.some((t) => t.columns.includes(column)));
        }
      }
      if (events.length > 0 || columns.length > 0)
        uncovered.push({ cache: entry.cache, table: source.table, events, columns });
    }
  }
  return uncovered;
}

/** pg_trigger.tgtype's bits (PostgreSQL's catalog/pg_trigger.h). */
const TRIGGER_TYPE_EVENTS: ReadonlyArray<[number, TriggerEvent]> = [
  [1 << 2, 'INSERT'],
  [1 << 4, 'UPDATE'],
  [1 << 3, 'DELETE'],
  [1 << 5, 'TRUNCATE'],
];

/**
 * The user-defined triggers of the current schema's tables, from the catalog: the function each
 * calls, the events it fires on (tgtype) and its `UPDATE OF` columns (tgattr, by pg_attribute).
 */
export async function readTriggers(db: Pick<Db, 'execute'>): Promise<TableTrigger[]> {
  const rows = await rowsOf<{
    table: string;
    name: string;
    function: string;
    type: number;
    enabled: string;
    conditional: boolean;
    columns: string[];
  }>(
    db,
    sql`select c.relname::text as "table", t.tgname::text as name, p.proname::text as function,
      t.tgtype::int as type, t.tgenabled::text as enabled, t.tgqual is not null as conditional,
      to_json(array(
        select a.attname::text
        from unnest(t.tgattr::int2[]) with ordinality as k(attnum, n)
        join pg_attribute a on a.attrelid = t.tgrelid and a.attnum = k.attnum
        order by k.n)) as columns
    from pg_trigger t
    join pg_class c on c.oid = t.tgrelid
    join pg_namespace n on n.oid = c.relnamespace
    join pg_proc p on p.oid = t.tgfoid
    where not t.tgisinternal and n.nspname = current_schema()
    order by 1, 2`,
  );
  return rows.map((row) => ({
    table: row.table,
    name: row.name,
    function: row.function,
    events: TRIGGER_TYPE_EVENTS.filter(([bit]) => (row.type & bit) !== 0).map(([, event]) => event),
    columns: row.columns,
    mayNotFire: row.enabled === 'D' || row.conditional,
  }));
}
