import pg from 'pg';

/**
 * How long each step with PostgreSQL may take (docs/operations.md, Database timeouts), so that a
 * database that restarts, refuses or goes silent makes requests fail fast with a 503 instead of
 * hanging, and a connection that died is replaced instead of handed out again.
 */
export const DATABASE_TIMEOUTS: Readonly<{
  connectMs: number;
  statementMs: number;
  readMs: number;
  idleInTransactionMs: number;
  keepAliveDelayMs: number;
}> = {
  /** Opening a connection, and waiting for a free one of the pool: a refused or silent database. */
  connectMs: 5_000,
  /**
   * One statement of a request or a job, stopped by PostgreSQL itself (SQLSTATE 57014). The
   * longest statements of a request take well under a second (bench/results/); migrations, the
   * seed and reconcile run without it.
   */
  statementMs: 30_000,
  /**
   * This process's own wait for a statement's answer: the statement timeout plus a margin, so the
   * server's cancel comes first when it can answer at all, and a connection that went silent (a
   * network cut) is given up here.
   */
  readMs: 35_000,
  /**
   * A transaction left open with nothing running: its locks (the stock of products) would block
   * every other instance; PostgreSQL ends such a session. No transaction of this server waits on
   * anything but the database between its statements.
   */
  idleInTransactionMs: 15_000,
  /** TCP keepalive on every connection: a database host that vanished is noticed by the kernel. */
  keepAliveDelayMs: 10_000,
};

export type DatabaseTimeouts = typeof DATABASE_TIMEOUTS;

/**
 * The settings of a connection to PostgreSQL. `longWork` drops the statement and read timeouts
 * for work that may legitimately run long (migrations, the seed, reconcile); connecting and
 * keepalive stay bounded.
 */
export function connectionSettings(
  connectionString: string,
  longWork = false,
  timeouts: DatabaseTimeouts = DATABASE_TIMEOUTS,
): pg.PoolConfig {
  return {
    connectionString,
    connectionTimeoutMillis: timeouts.connectMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: timeouts.keepAliveDelayMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
    ...(longWork ? {} : { statement_timeout: timeouts.statementMs, query_timeout: timeouts.readMs }),
  };
}

/** The error pg gives a statement whose answer did not come within `query_timeout`. */
export function isReadTimeout(error: unknown): boolean {
  return error instanceof Error && error.message === 'Query read timeout';
}

/**
 * A connection class whose errors never go unheard and which is closed as soon as one of its
 * statements timed out. pg's pool listens for a connection's errors only while it is idle: one that
 * breaks while a transaction holds it would emit an 'error' nobody hears, which ends the process.
 * And after a read timeout the connection still waits for the lost answer, so every later statement
 * on it would queue behind it: it is closed at once, its pending statements fail, and the pool
 * drops it when it is handed back (its `_queryable` is then false).
 */
export function guardedClientClass(onError: (error: Error) => void, onReadTimeout: () => void) {
  return class GuardedClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      this.on('error', onError);
      // pg's query has many overloads (text, config, submittable; callback or promise); the wrapper
      // passes each call through unchanged and only looks at how it ends.
      const query = this.query.bind(this) as (...args: unknown[]) => unknown;
      const watched = (...args: unknown[]): unknown => {
        const last = args.at(-1);
        if (typeof last === 'function') {
          const callback = last as (error: unknown, result: unknown) => void;
          args[args.length - 1] = (error: unknown, result: unknown) => {
            if (isReadTimeout(error)) this.abandon(error);
            callback(error, result);
          };
          return query(...args);
        }
        const result = query(...args);
        if (result instanceof Promise) {
          result.catch((error: unknown) => {
            if (isReadTimeout(error)) this.abandon(error);
          });
        }
        return result;
      };
      this.query = watched as pg.Client['query'];
    }

    /** Closes a connection that stopped answering; its statements fail with `error`. */
    abandon(error: unknown): void {
      onReadTimeout();
      this.connection.stream.destroy(error instanceof Error ? error : undefined);
    }
  };
}

/**
 * A pool of connections to PostgreSQL with the timeouts above. When one connection stopped
 * answering, the idle ones were most likely opened on the same path and are as dead: they are closed
 * too, and the pool opens fresh ones when it needs them, so an instance serves again after a
 * network cut without a restart.
 */
export function createPostgresPool(settings: pg.PoolConfig, onError: (error: Error) => void): pg.Pool {
  const idle = new Set<pg.PoolClient>();
  const closeIdle = () => {
    for (const client of idle) {
      idle.delete(client);
      // Every connection of this pool is a pg.Client (the pool's Client option below).
      (client as unknown as pg.Client).connection.stream.destroy(
        new Error('Closed: another connection of the pool stopped answering'),
      );
    }
  };
  const pool = new pg.Pool({ ...settings, Client: guardedClientClass(onError, closeIdle) });
  pool.on('release', (_error, client) => idle.add(client));
  pool.on('acquire', (client) => idle.delete(client));
  pool.on('remove', (client) => idle.delete(client));
  // An idle connection's error reaches the pool too; the connection's own listener reported it.
  pool.on('error', () => {});
  return pool;
}
