import fs from 'node:fs';
import crypto from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { rowsOf } from './rows-of';
import * as schema from './schema';
import { nameStatementsOf, StatementNames } from './statement-names';
import {
  connectionSettings,
  createPostgresPool,
  guardedClientClass,
  type DatabaseTimeouts,
} from './postgres-connections';
import {
  createPglite,
  DataDirLockedError,
  EMBEDDED_SOCKET_PORT,
  lockDataDir,
  pgliteDir,
  startEmbeddedProcess,
  type EmbeddedProcess,
  type EmbeddedServerMessage,
} from './embedded-database';
import { readArrayRowsCheaply } from './pg-array-rows';

// Every pg connection of this process reads drizzle's rows (arrays) without pg's row template.
readArrayRowsCheaply();

export { DataDirLockedError };

export type Schema = typeof schema;
/**
 * The database handle every query takes first (CONTRIBUTING.md, Code layout rules): the pool
 * or a transaction.
 */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * How this process speaks to it: the pg driver (PostgreSQL, and the embedded database in its own
   * process) or PGlite inside this process (tests, `npm run seed`, EMBEDDED_DATABASE=in-process).
   */
  driver: 'pg' | 'pglite';
  /** Where the embedded database lives; undefined for PostgreSQL and in-memory PGlite. */
  dataDir: string | undefined;
  ping(): Promise<void>;
  /**
   * Runs SQL text as a library written for node-postgres sends it (the job queue,
   * docs/decisions/0021-durable-jobs.md): with values, one statement; without, possibly several.
   */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  close(): Promise<void>;
  /**
   * Hears NOTIFY on `channel` (docs/rules/live-updates.md, Live updates): on PostgreSQL through a
   * dedicated connection of this process (a pooled one would be handed to other queries), which
   * reconnects after a drop and then calls `onReconnect` so the caller can catch up; on the embedded
   * database in its own process through the one connection; on PGlite in process directly.
   * Notifications sent inside a transaction arrive once it commits, never if it rolls back.
   * Answers the function that stops listening.
   */
  listen(channel: string, handlers: NotificationHandlers): Promise<StopListening>;
}

export interface NotificationHandlers {
  onNotify: (payload: string) => void;
  onReconnect?: () => void;
}

/**
 * Stops listening. On PostgreSQL it also carries `fence`: resolves true once every notification
 * committed before the call has been handed to `onNotify`, false when that cannot be known (the
 * connection is down or slow); docs/decisions/0029-signed-in-reads-kept.md, The fence.
 */
export type StopListening = (() => Promise<void>) & { fence?: () => Promise<boolean> };

const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;

/** The committed migrations, found from this file both in src/ and in the bundled dist/. */
export function migrationsFolder(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return path.join(dir, 'src/server/db/migrations');
    dir = path.dirname(dir);
  }
  throw new Error('Cannot find the project root (package.json) to locate the migrations');
}

export interface OpenOptions {
  /** postgres:// URL; when absent the embedded PGlite database is used. */
  databaseUrl?: string | undefined;
  /** Directory for PGlite files; absent means in memory (tests). */
  dataDir?: string | undefined;
  /**
   * Where the embedded database runs (docs/decisions/0016-embedded-database-process.md): in a
   * process of its own, spoken to by the pg driver (`npm start`), or inside this one (the default:
   * tests, `npm run seed`). Only a data directory can be opened in a process of its own.
   */
  embedded?: 'process' | 'in-process';
  /** The built embedded database program; dist/server/embedded-db.js beside the built server by default. */
  embeddedProgram?: string;
  /**
   * The embedded database process when the caller has started it already (`startEmbeddedProcess`,
   * on the same `dataDir`): the server starts it before loading its modules.
   */
  embeddedProcess?: EmbeddedProcess;
  /** Called when the embedded database process ends without being asked to. */
  onEmbeddedExit?: (code: number | null, signal: NodeJS.Signals | null) => void;
  /**
   * Whether PostgreSQL's connections send repeated statements under names (prepared once per
   * connection; src/server/db/statement-names.ts). Off behind a pooler that cannot keep them
   * (PgBouncer in transaction mode before 1.21). The embedded database always names them.
   */
  preparedStatements?: boolean;
  /** Where errors of PostgreSQL connections go; standard error by default. */
  onError?: (error: Error) => void;
  /**
   * Work that may legitimately run long (`npm run reconcile`, `npm run seed`): PostgreSQL's
   * connections then have no statement timeout (docs/operations.md, Database timeouts).
   */
  longWork?: boolean;
  /** Shorter timeouts for tests that make the database fail; the documented ones by default. */
  timeouts?: DatabaseTimeouts;
}

/**
 * Work that may run longer than a request's statement timeout, on a connection of its own
 * (migrations; docs/operations.md, Database timeouts). Only PostgreSQL has one; the embedded
 * database runs it on its own handle.
 */
const longWorkOf = new WeakMap<Database, <T>(work: (db: Db) => Promise<T>) => Promise<T>>();

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) {
    const databaseUrl = options.databaseUrl;
    const onError = options.onError ?? reportConnectionError;
    // A connection that the server drops (restart, failover, a network cut), idle or in use, must
    // not crash the process: its statements fail (a 503 to the client), the pool replaces it on
    // the next query, and /api/ready answers 503 while it cannot (docs/operations.md).
    const pool = createPostgresPool(
      { ...connectionSettings(databaseUrl, options.longWork, options.timeouts), max: 10 },
      onError,
    );
    if (options.preparedStatements !== false) {
      const names = new StatementNames();
      pool.on('connect', (client) => nameStatementsOf(client, names));
    }
    const db = drizzlePg(pool, { schema });
    const listener = new PostgresListener(connectionSettings(databaseUrl, false, options.timeouts), onError);
    const database: Database = {
      db,
      kind: 'postgres',
      driver: 'pg',
      dataDir: undefined,
      ping: async () => {
        await pool.query('select 1');
      },
      executeSql: (text, values) => pool.query(text, values),
      close: async () => {
        await listener.end();
        await pool.end();
      },
      listen: (channel, handlers) => listener.listen(channel, handlers),
    };
    longWorkOf.set(database, async (work) => {
      const LongWorkClient = guardedClientClass(onError, () => {});
      const client = new LongWorkClient(connectionSettings(databaseUrl, true, options.timeouts));
      await client.connect();
      try {
        return await work(drizzlePg(client, { schema }));
      } finally {
        await client.end();
      }
    });
    return database;
  }
  if (options.embedded === 'process') {
    if (!options.dataDir)
      throw new Error('The embedded database runs in a process of its own only on a data directory');
    return openEmbeddedProcess(options.dataDir, options);
  }
  let release = () => {};
  if (options.dataDir) release = lockDataDir(options.dataDir);
  try {
    const client = await createPglite(options.dataDir ? pgliteDir(options.dataDir) : undefined);
    const db = drizzlePglite(client, { schema });
    let closed = false;
    return {
      db,
      kind: 'pglite',
      driver: 'pglite',
      dataDir: options.dataDir,
      ping: async () => {
        await client.query('select 1');
      },
      executeSql: async (text, values) => {
        if (values && values.length > 0) return client.query(text, values);
        // PGlite's query() takes one statement; exec() takes several and answers each one's rows.
        const results = await client.exec(text);
        return results.at(-1) ?? { rows: [] };
      },
      close: async () => {
        if (closed) return;
        closed = true;
        try {
          await client.close();
        } finally {
          release();
        }
      },
      listen: async (channel, handlers) => {
        if (!CHANNEL_NAME.test(channel)) throw new Error(`Not a channel name: ${channel}`);
        const stop = await client.listen(channel, handlers.onNotify);
        return async () => {
          if (!closed) await stop();
        };
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/** How long the embedded database process may take to close PGlite before it is killed. */
const EMBEDDED_CLOSE_TIMEOUT_MS = 8_000;

/**
 * Starts the embedded database process on `dataDir`, unless the caller has, and speaks to it with
 * the pg driver (docs/decisions/0016-embedded-database-process.md). The pool holds one connection,
 * as PGlite is one backend: queries queue, and a transaction has the database to itself until it
 * ends, as when PGlite runs in this process.
 */
async function openEmbeddedProcess(dataDir: string, options: OpenOptions): Promise<Database> {
  const { child, ready, exited } =
    options.embeddedProcess ?? startEmbeddedProcess(dataDir, options.embeddedProgram);
  const socketDir = await ready;
  // Started early by the caller, it may have ended before this listens for its end.
  if (child.exitCode !== null || child.signalCode !== null)
    throw new Error(
      `The embedded database process ended unexpectedly (${child.signalCode ?? `exit code ${child.exitCode}`})`,
    );
  let closing = false;
  child.on('exit', (code, signal) => {
    if (closing) return;
    (options.onEmbeddedExit ?? reportEmbeddedExit)(code, signal);
  });

  const pool = new pg.Pool({
    host: socketDir,
    port: EMBEDDED_SOCKET_PORT,
    user: 'postgres',
    database: 'postgres',
    max: 1,
    // The one connection stays open: PGlite has nothing to free, and reconnecting costs a start-up.
    idleTimeoutMillis: 0,
    Client: EmbeddedClient,
  });
  pool.on('error', options.onError ?? reportConnectionError);
  // A connection in use has no listener of the pool's: one that broke while a transaction held it
  // would end the process with an unheard 'error' (the database process's end is reported apart).
  pool.on('connect', (client) => client.on('error', () => {}));
  const names = new StatementNames();
  pool.on('connect', (client) => nameStatementsOf(client, names));
  const channels = new Map<string, Set<NotificationHandlers>>();
  // PGlite is one backend: a NOTIFY comes back on the connection whose transaction sent it, which
  // is the pool's only one; the LISTEN of that backend outlives a reconnection of the socket.
  pool.on('connect', (client) => {
    client.on('notification', (message) => {
      if (message.payload === undefined) return;
      for (const handlers of channels.get(message.channel) ?? []) handlers.onNotify(message.payload);
    });
  });
  let closed = false;
  return {
    db: drizzlePg(pool, { schema }),
    kind: 'pglite',
    driver: 'pg',
    dataDir,
    ping: async () => {
      await pool.query('select 1');
    },
    executeSql: (text, values) => pool.query(text, values),
    close: async () => {
      if (closed) return;
      closed = true;
      try {
        await pool.end();
      } finally {
        closing = true;
        if (child.exitCode === null && child.signalCode === null) {
          const message: EmbeddedServerMessage = { type: 'close' };
          child.send(message);
          const timer = setTimeout(() => child.kill('SIGKILL'), EMBEDDED_CLOSE_TIMEOUT_MS);
          await exited;
          clearTimeout(timer);
        }
      }
    },
    listen: async (channel, handlers) => {
      if (!CHANNEL_NAME.test(channel)) throw new Error(`Not a channel name: ${channel}`);
      let listeners = channels.get(channel);
      if (!listeners) {
        listeners = new Set();
        channels.set(channel, listeners);
        await pool.query(`LISTEN "${channel}"`);
      }
      listeners.add(handlers);
      const own = listeners;
      return async () => {
        own.delete(handlers);
        if (own.size > 0 || channels.get(channel) !== own) return;
        channels.delete(channel);
        if (!closed) await pool.query(`UNLISTEN "${channel}"`);
      };
    },
  };
}

/**
 * A connection to the embedded database that forgets the backend's prepared statements before it
 * is used: PGlite's one backend keeps those of a socket connection that has gone, and would refuse
 * their names as taken (src/server/db/statement-names.ts). The pool hands the connection out only
 * once this has run.
 */
class EmbeddedClient extends pg.Client {
  override connect(): Promise<pg.Client>;
  override connect(callback: ((error: Error) => void) | ((error: null, client: pg.Client) => void)): void;
  override connect(
    callback?: ((error: Error) => void) | ((error: null, client: pg.Client) => void),
  ): Promise<pg.Client> | void {
    const ready = super.connect().then(async () => {
      try {
        await this.query('DEALLOCATE ALL');
      } catch (error) {
        // The pool drops a connection that failed to connect without ending it: its socket, the
        // embedded database's only one, would stay taken.
        await this.end().catch(() => {});
        throw error;
      }
      return this;
    });
    if (!callback) return ready;
    const done = callback as (error: Error | null, client?: pg.Client) => void;
    ready.then(
      (client) => done(null, client),
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
  }
}

function reportEmbeddedExit(code: number | null, signal: NodeJS.Signals | null): void {
  process.stderr.write(
    `The embedded database process ended unexpectedly (${signal ?? `exit code ${code}`})\n`,
  );
}

function reportConnectionError(error: Error): void {
  process.stderr.write(`database connection error: ${error.message}\n`);
}

/** Waits before reconnecting the listening connection: 1 s, doubling up to 30 s. */
const LISTEN_RETRY_MS = { first: 1_000, max: 30_000 };
/**
 * How often the listening connection asks the database something: a connection that went silent
 * (a network cut) would otherwise wait for notifications forever (docs/operations.md, Database
 * timeouts); the question fails within the read timeout and the connection is made again.
 */
const LISTEN_HEARTBEAT_MS = 15_000;
/** A fence not heard back within this is given up: its waiters read the database instead. */
const FENCE_TIMEOUT_MS = 1_000;

/**
 * Fences of one listening connection (docs/decisions/0029-signed-in-reads-kept.md, The fence): the
 * connection sends a NOTIFY on a channel only it listens to and waits to hear it. PostgreSQL hands a
 * listener the notifications of every channel in the order their transactions committed, so once it
 * is heard, every notification committed before it was sent has been handled. The callers that
 * asked while one was on its way wait for the next one, which one statement answers for all of them.
 */
export class Fences {
  private readonly channel = `fence_${crypto.randomBytes(8).toString('hex')}`;
  private sent: { token: string; waiters: ((ok: boolean) => void)[]; timer: NodeJS.Timeout } | undefined;
  private next: ((ok: boolean) => void)[] = [];
  private count = 0;
  /** A fence is to be sent at the end of this turn of the event loop. */
  private soon = false;
  private client: pg.Client | undefined;
  /**
   * A fence went unanswered within its time: until one is heard again, callers are answered false
   * at once (they read the database) while a single fence goes on probing the connection.
   */
  private slow = false;

  /** The statement that makes the connection hear its fences. */
  get listenStatement(): string {
    return `LISTEN "${this.channel}"`;
  }

  /** Whether a notification is one of these fences (and handles it). */
  heard(message: pg.Notification): boolean {
    if (message.channel !== this.channel) return false;
    if (this.sent && this.sent.token === message.payload) {
      this.slow = false;
      this.finish(this.sent.token, true);
    }
    return true;
  }

  /** The connection fences go through, once it listens; undefined while there is none. */
  use(client: pg.Client | undefined): void {
    this.client = client;
    this.slow = false;
    if (client === undefined) {
      if (this.sent) this.finish(this.sent.token, false);
      const waiting = this.next;
      this.next = [];
      for (const resolve of waiting) resolve(false);
    }
  }

  fence(): Promise<boolean> {
    if (this.client === undefined) return Promise.resolve(false);
    if (this.slow) {
      if (!this.sent) this.send();
      return Promise.resolve(false);
    }
    return new Promise((resolve) => {
      this.next.push(resolve);
      if (!this.sent) this.sendSoon();
    });
  }

  /**
   * Sends the next fence once the requests read in this turn of the event loop have asked for it:
   * sockets that became readable together are parsed in one turn, and all of them share the fence.
   */
  private sendSoon(): void {
    if (this.soon) return;
    this.soon = true;
    setImmediate(() => {
      this.soon = false;
      if (!this.sent && this.next.length > 0) this.send();
    });
  }

  private send(): void {
    const client = this.client;
    const waiters = this.next;
    this.next = [];
    if (client === undefined) {
      for (const resolve of waiters) resolve(false);
      return;
    }
    const token = String(++this.count);
    const timer = setTimeout(() => {
      this.slow = true;
      this.finish(token, false);
    }, FENCE_TIMEOUT_MS);
    timer.unref();
    this.sent = { token, waiters, timer };
    client.query(`select pg_notify('${this.channel}', '${token}')`).catch(() => this.finish(token, false));
  }

  /** Answers the fence `token`'s waiters, if it is still the one on its way, and sends the next. */
  private finish(token: string, ok: boolean): void {
    const sent = this.sent;
    if (sent?.token !== token) return;
    this.sent = undefined;
    clearTimeout(sent.timer);
    for (const resolve of sent.waiters) resolve(ok);
    if (this.next.length > 0) this.sendSoon();
  }
}

/**
 * The one listening connection of a PostgreSQL database handle: every channel any part of the app
 * listens on goes through it, so that a fence answers for all of them at once. It is made on the
 * first `listen`, made again after a drop (then every listener's `onReconnect` is called, so each can
 * catch up), and ended when the last listener stops.
 */
class PostgresListener {
  private readonly channels = new Map<string, Set<NotificationHandlers>>();
  private readonly fences = new Fences();
  private readonly ListeningClient = guardedClientClass(
    () => {},
    () => {},
  );
  /** The connection once it listens on every channel of the map. */
  private client: pg.Client | undefined;
  private connecting: Promise<boolean> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private delay = LISTEN_RETRY_MS.first;
  /** Counts the connections given up (every listener stopped): a connection of an earlier one is not kept. */
  private generation = 0;

  constructor(
    private readonly settings: pg.ClientConfig,
    private readonly onError: (error: Error) => void,
  ) {}

  async listen(channel: string, handlers: NotificationHandlers): Promise<StopListening> {
    if (!CHANNEL_NAME.test(channel)) throw new Error(`Not a channel name: ${channel}`);
    let listeners = this.channels.get(channel);
    const isNew = listeners === undefined;
    if (listeners === undefined) {
      listeners = new Set();
      this.channels.set(channel, listeners);
    }
    listeners.add(handlers);
    const client = this.client;
    if (client !== undefined) {
      // A failure ends the connection: fences stop answering, and the next connection listens on
      // every channel of the map (and the kept reads are dropped).
      if (isNew)
        await client.query(`LISTEN "${channel}"`).catch(() => {
          if (this.client === client) this.fences.use(undefined);
          void client.end().catch(() => {});
        });
    } else if (this.connecting !== undefined) await this.connecting;
    // A database that cannot be reached yet is reported and tried again; the caller is not held up.
    else if (this.retryTimer === undefined) await this.connect(false);
    const own = listeners;
    const stop: StopListening = async () => {
      own.delete(handlers);
      if (own.size > 0 || this.channels.get(channel) !== own) return;
      this.channels.delete(channel);
      if (this.channels.size === 0) await this.end();
      else await this.client?.query(`UNLISTEN "${channel}"`).catch(() => {});
    };
    stop.fence = () => this.fences.fence();
    return stop;
  }

  /** Ends the connection and any retry (every listener stopped, or the database closes). */
  async end(): Promise<void> {
    this.generation++;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.delay = LISTEN_RETRY_MS.first;
    // A connection on its way is given up when it arrives (its generation is past).
    this.connecting = undefined;
    const client = this.client;
    this.client = undefined;
    this.fences.use(undefined);
    await client?.end().catch(() => {});
  }

  private connect(again: boolean): Promise<boolean> {
    if (this.connecting !== undefined) return this.connecting;
    const connecting = this.connectOnce(again).finally(() => {
      if (this.connecting === connecting) this.connecting = undefined;
    });
    this.connecting = connecting;
    return connecting;
  }

  private async connectOnce(again: boolean): Promise<boolean> {
    const generation = this.generation;
    const client = new this.ListeningClient(this.settings);
    let dropped = false;
    const heartbeat = setInterval(() => {
      client.query('select 1').catch((error: unknown) => {
        drop(error instanceof Error ? error : new Error(String(error)));
      });
    }, LISTEN_HEARTBEAT_MS);
    heartbeat.unref();
    const drop = (error?: Error) => {
      if (dropped) return;
      dropped = true;
      clearInterval(heartbeat);
      if (error) this.onError(error);
      void client.end().catch(() => {});
      // A connection of a listener given up, or one already replaced, schedules nothing.
      if (generation !== this.generation || (this.client !== undefined && this.client !== client)) return;
      this.client = undefined;
      this.fences.use(undefined);
      if (this.channels.size > 0 && this.retryTimer === undefined) {
        this.retryTimer = setTimeout(() => {
          this.retryTimer = undefined;
          void this.connect(true);
        }, this.delay);
        this.retryTimer.unref();
        this.delay = Math.min(this.delay * 2, LISTEN_RETRY_MS.max);
      }
    };
    client.on('notification', (message) => {
      if (this.fences.heard(message) || message.payload === undefined) return;
      for (const handlers of this.channels.get(message.channel) ?? []) handlers.onNotify(message.payload);
    });
    client.on('error', drop);
    client.on('end', () => drop());
    try {
      await client.connect();
      await client.query(this.fences.listenStatement);
      // A fence's commit need not wait for the disk: it changes nothing but the notification queue.
      await client.query('SET synchronous_commit = off');
      // Channels added while this connected are listened on too.
      const listened = new Set<string>();
      for (;;) {
        const waiting = [...this.channels.keys()].filter((channel) => !listened.has(channel));
        if (waiting.length === 0) break;
        for (const channel of waiting) {
          await client.query(`LISTEN "${channel}"`);
          listened.add(channel);
        }
      }
    } catch (error) {
      drop(error instanceof Error ? error : new Error(String(error)));
      return false;
    }
    if (generation !== this.generation || dropped) {
      void client.end().catch(() => {});
      return false;
    }
    this.client = client;
    this.delay = LISTEN_RETRY_MS.first;
    // Every listener hears of the gap before any fence is answered: the kept reads are dropped at
    // once; the live events' catch-up runs on its own (a cursor read meanwhile is only lower).
    if (again)
      for (const listeners of [...this.channels.values()])
        for (const handlers of listeners) {
          try {
            handlers.onReconnect?.();
          } catch (error) {
            this.onError(error instanceof Error ? error : new Error(String(error)));
          }
        }
    this.fences.use(client);
    return true;
  }
}

export async function migrateDatabase(database: Database): Promise<void> {
  const folder = migrationsFolder();
  const longWork = longWorkOf.get(database);
  if (longWork) {
    // A migration may take longer than a request's statement timeout (a new index on a big table).
    await longWork((db) => migratePg(db as Parameters<typeof migratePg>[0], { migrationsFolder: folder }));
  } else if (database.driver === 'pg') {
    // Both adapters produce the same PgDatabase; the migrators only differ in their driver type.
    await migratePg(database.db as Parameters<typeof migratePg>[0], { migrationsFolder: folder });
  } else {
    await migratePglite(database.db as Parameters<typeof migratePglite>[0], { migrationsFolder: folder });
  }
  const work = longWork ?? ((run: (db: Db) => Promise<unknown>) => run(database.db));
  await work((db) => vacuumRewrittenTables(db));
}

/** Below this many rows a table's reads hardly depend on its visibility map. */
const REWRITTEN_TABLE_MIN_ROWS = 10_000;

/**
 * A migration that rewrites a table (a stored generated column added, say) leaves none of its pages
 * marked all-visible, and autovacuum (none at all on the embedded database) may not come back to it
 * for a long time: until then every index-only scan reads the table too. Such tables, of some size,
 * are vacuumed once migrated (docs/decisions/0030-ten-times-the-data.md, Names lower-cased once).
 */
async function vacuumRewrittenTables(db: Db): Promise<void> {
  const rows = await rowsOf<{ name: string }>(
    db,
    // oid::regclass::text: the name as SQL spells it, quoted and qualified where it must be.
    sql`select oid::regclass::text as name from pg_class
      where relnamespace = 'public'::regnamespace and relkind = 'r'
        and reltuples >= ${REWRITTEN_TABLE_MIN_ROWS} and relallvisible = 0`,
  );
  for (const { name } of rows) await db.execute(sql.raw(`vacuum (analyze) ${name}`));
}
