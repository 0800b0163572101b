import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
/**
 * The database handle every query takes first (docs/product-rules.md, Code layout rules): the pool
 * or a transaction.
 */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Where the embedded database lives; undefined for PostgreSQL and in-memory PGlite. */
  dataDir: string | undefined;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * Hears NOTIFY on `channel` (docs/product-rules.md, Live updates): on PostgreSQL through a
   * dedicated connection of this process (a pooled one would be handed to other queries), which
   * reconnects after a drop and then calls `onReconnect` so the caller can catch up; on PGlite in
   * process. Notifications sent inside a transaction arrive once it commits, never if it rolls back.
   * Answers the function that stops listening.
   */
  listen(channel: string, handlers: NotificationHandlers): Promise<() => Promise<void>>;
}

export interface NotificationHandlers {
  onNotify: (payload: string) => void;
  onReconnect?: () => void;
}

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

export class DataDirLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The data directory ${dir} is already in use by another marketplace process (pid ${pid}). ` +
        'Stop that process first, or point DATA_DIR at another directory.',
    );
    this.name = 'DataDirLockedError';
  }
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite must never be opened from two processes: a lock file holding the owner's pid guards the
 * data directory. A lock left by a dead process is taken over.
 */
function acquireLock(lockPath: string, dir: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return () => {
        try {
          if (fs.readFileSync(lockPath, 'utf8').trim() === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number.parseInt(fs.readFileSync(lockPath, 'utf8').trim(), 10);
      if (Number.isInteger(pid) && pid !== process.pid && isProcessAlive(pid))
        throw new DataDirLockedError(dir, pid);
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock the data directory ${dir}`);
}

export interface OpenOptions {
  /** postgres:// URL; when absent the embedded PGlite database is used. */
  databaseUrl?: string | undefined;
  /** Directory for PGlite files; absent means in memory (tests). */
  dataDir?: string | undefined;
  /** Where errors of idle PostgreSQL connections go; standard error by default. */
  onError?: (error: Error) => void;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection that the server drops (restart, failover) must not crash the process:
    // the pool replaces it on the next query, and /api/health reports while it cannot.
    pool.on('error', (error) => {
      (options.onError ?? ((e: Error) => process.stderr.write(`database connection error: ${e.message}\n`)))(
        error,
      );
    });
    const db = drizzlePg(pool, { schema });
    const databaseUrl = options.databaseUrl;
    return {
      db,
      kind: 'postgres',
      dataDir: undefined,
      ping: async () => {
        await pool.query('select 1');
      },
      close: () => pool.end(),
      listen: (channel, handlers) =>
        listenOnPostgres(databaseUrl, channel, handlers, options.onError ?? reportConnectionError),
    };
  }
  let release = () => {};
  let dbDir: string | undefined;
  if (options.dataDir) {
    fs.mkdirSync(options.dataDir, { recursive: true });
    release = acquireLock(path.join(options.dataDir, 'db.lock'), options.dataDir);
    dbDir = path.join(options.dataDir, 'db');
  }
  try {
    // pg_trgm backs the product name search index (migration 0001); PostgreSQL ships it as contrib.
    const extensions = { pg_trgm };
    const client = dbDir ? new PGlite(dbDir, { extensions }) : new PGlite({ extensions });
    await client.waitReady;
    const db = drizzlePglite(client, { schema });
    let closed = false;
    return {
      db,
      kind: 'pglite',
      dataDir: options.dataDir,
      ping: async () => {
        await client.query('select 1');
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

function reportConnectionError(error: Error): void {
  process.stderr.write(`database connection error: ${error.message}\n`);
}

/** Waits before reconnecting the listening connection: 1 s, doubling up to 30 s. */
const LISTEN_RETRY_MS = { first: 1_000, max: 30_000 };

async function listenOnPostgres(
  databaseUrl: string,
  channel: string,
  handlers: NotificationHandlers,
  onError: (error: Error) => void,
): Promise<() => Promise<void>> {
  if (!CHANNEL_NAME.test(channel)) throw new Error(`Not a channel name: ${channel}`);
  let current: pg.Client | undefined;
  let stopped = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let delay = LISTEN_RETRY_MS.first;

  const connect = async (): Promise<boolean> => {
    const client = new pg.Client({ connectionString: databaseUrl });
    let dropped = false;
    const drop = (error?: Error) => {
      if (dropped) return;
      dropped = true;
      if (error) onError(error);
      if (current === client) current = undefined;
      void client.end().catch(() => {});
      if (!stopped) {
        retryTimer = setTimeout(() => void reconnect(), delay);
        retryTimer.unref();
        delay = Math.min(delay * 2, LISTEN_RETRY_MS.max);
      }
    };
    client.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) handlers.onNotify(message.payload);
    });
    client.on('error', drop);
    client.on('end', () => drop());
    try {
      await client.connect();
      await client.query(`LISTEN "${channel}"`);
    } catch (error) {
      drop(error instanceof Error ? error : new Error(String(error)));
      return false;
    }
    current = client;
    delay = LISTEN_RETRY_MS.first;
    return true;
  };

  const reconnect = async () => {
    if (!stopped && (await connect())) handlers.onReconnect?.();
  };

  // A database that cannot be reached yet is reported and tried again; the caller is not held up.
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retryTimer);
    const client = current;
    current = undefined;
    await client?.end().catch(() => {});
  };
}

export async function migrateDatabase(database: Database): Promise<void> {
  const folder = migrationsFolder();
  if (database.kind === 'postgres') {
    // Both adapters produce the same PgDatabase; the migrators only differ in their driver type.
    await migratePg(database.db as Parameters<typeof migratePg>[0], { migrationsFolder: folder });
  } else {
    await migratePglite(database.db as Parameters<typeof migratePglite>[0], { migrationsFolder: folder });
  }
}
