import type { FastifyBaseLogger } from 'fastify';
import type { Database, StopListening } from '../db/client';

/**
 * The channel the triggers of migration 0025 notify on, with the table's name since 0034: any
 * statement that changes or deletes a session or a user, or changes what a list of orders shows
 * (orders, their items, refunds, disputes, addresses).
 */
export const PRIVATE_READS_CHANNEL = 'private_reads_changed';

export interface Kept<V> {
  value: V;
  /** When it stops being true by the clock alone (ms since the epoch; a session's end). */
  expire: number;
  /** The bytes it holds, when that is more than a little (an answer as sent). */
  bytes?: number;
}

/**
 * What signed-in reads find, kept in memory (docs/decisions/0029-signed-in-reads-kept.md, What is
 * kept): the users of recent sessions (with the place of their primary address), and lists of own
 * orders as sent. The embedded database has one app instance (its data directory's lock), so every
 * change comes through this process, and a notice arrives with its commit. On PostgreSQL other
 * instances write too and their notices arrive a moment later: a request uses what is kept only
 * after a fence (`freshFor`) has made sure every notice committed before it arrived was heard, and
 * reads the database when that cannot be known. The database's triggers send one, naming the
 * table, for every statement that changes what is kept: a change to orders, their items, refunds
 * or disputes drops the lists; a change to a session or a user (a sign-out, a suspension, a role
 * granted or taken, a password changed, a name) or an address drops everything. Sign-in and
 * sign-out drop everything too before their answer leaves. A load that began before a drop of its
 * scope is not kept (a generation number). Which tables and statements must send the notice:
 * `CACHE_INVALIDATION` in cache-invalidation.ts (docs/decisions/0015-catalog-and-checkout-throughput.md,
 * What invalidates what); a read that comes to show another table or column is added there first.
 */
export type KeptScope = 'sessions' | 'lists';

/**
 * The tables whose notices drop the kept lists of orders only; a notice from any other table (a
 * session, a user, an address) or without a table drops everything (migration 0034).
 */
const LIST_ONLY_TABLES: ReadonlySet<string> = new Set(['orders', 'order_items', 'refunds', 'disputes']);

/** One scope's reads, oldest first, and what they hold. */
interface Shelf {
  kept: Map<string, Kept<unknown>>;
  bytes: number;
  /** Counts the drops: a load begun before one is not kept. */
  generation: number;
}

const emptyShelf = (): Shelf => ({ kept: new Map(), bytes: 0, generation: 0 });

export class KeptPrivateReads {
  private readonly shelves: Record<KeptScope, Shelf> = { sessions: emptyShelf(), lists: emptyShelf() };
  private stopListening: StopListening | undefined;
  /** Each request's fence, asked at most once (a request is as fresh as its arrival). */
  private readonly fenced = new WeakMap<object, Promise<boolean>>();

  constructor(
    private readonly database: Pick<Database, 'listen'>,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
    /** At most this many reads are kept in each scope, holding at most this many bytes; the oldest go first. */
    private readonly maxEntries = 10_000,
    private readonly maxBytes = 16 * 1024 * 1024,
  ) {}

  async start(): Promise<void> {
    try {
      this.stopListening = await this.database.listen(PRIVATE_READS_CHANNEL, {
        onNotify: (table) => this.hear(table),
        onReconnect: () => this.clear(),
      });
    } catch (error) {
      this.log.warn({ err: error }, 'signed-in reads are not kept: cannot listen for changes');
    }
  }

  async stop(): Promise<void> {
    const stop = this.stopListening;
    this.stopListening = undefined;
    this.clear();
    await stop?.();
  }

  /**
   * Whether what is kept may answer `request`: true at once on the embedded database (its notices
   * arrive with their commits); on PostgreSQL once a fence sent after the request arrived has been
   * heard back (docs/decisions/0029-signed-in-reads-kept.md, The fence), false when it cannot be
   * (the listening connection is down or slow: the request reads the database). Nothing kept
   * before this process listens.
   */
  freshFor(request: object): true | Promise<boolean> {
    const stop = this.stopListening;
    if (stop === undefined) return Promise.resolve(false);
    if (stop.fence === undefined) return true;
    // The app's request and the server's under it (`raw`) share one: the server's listener may
    // have asked first (signed-in-replays.ts).
    const key = rawOf(request);
    let fenced = this.fenced.get(key);
    if (fenced === undefined) {
      fenced = stop.fence();
      this.fenced.set(key, fenced);
    }
    return fenced;
  }

  /**
   * What is kept under `key` in `scope` that may answer `request` (`freshFor`): undefined when
   * nothing is kept (no fence is waited for then) or when the fence cannot be had or a notice heard
   * meanwhile dropped it.
   */
  async getFresh<V>(scope: KeptScope, key: string, request: object): Promise<Kept<V> | undefined> {
    if (this.get(scope, key, Date.now()) === undefined) return undefined;
    const fresh = this.freshFor(request);
    if (fresh !== true && !(await fresh)) return undefined;
    return this.get<V>(scope, key, Date.now());
  }

  /** How many reads are kept (tests look). */
  get size(): number {
    return this.shelves.sessions.kept.size + this.shelves.lists.kept.size;
  }

  /** A notice naming the table that changed: drops what that table can change. */
  hear(table: string): void {
    if (LIST_ONLY_TABLES.has(table)) this.clearScope('lists');
    else this.clear();
  }

  /** Drops everything kept, and any load begun before this moment. */
  clear(): void {
    this.clearScope('sessions');
    this.clearScope('lists');
  }

  /** Drops what is kept in `scope`, and any load of it begun before this moment. */
  clearScope(scope: KeptScope): void {
    const shelf = this.shelves[scope];
    shelf.generation++;
    shelf.kept.clear();
    shelf.bytes = 0;
  }

  /** What is kept under `key` in `scope`, until its `expire`; undefined when it must be read. */
  get<V>(scope: KeptScope, key: string, now: number): Kept<V> | undefined {
    const shelf = this.shelves[scope];
    const entry = shelf.kept.get(key) as Kept<V> | undefined;
    if (entry === undefined) return undefined;
    if (entry.expire <= now) {
      forget(shelf, key);
      return undefined;
    }
    return entry;
  }

  /**
   * Reads with `load` (undefined: nothing to keep, such as no valid session) and keeps what it
   * found under `key` in `scope`, unless a change to that scope was heard meanwhile.
   */
  async load<V>(
    scope: KeptScope,
    key: string,
    load: () => Promise<Kept<V> | undefined>,
  ): Promise<Kept<V> | undefined> {
    const shelf = this.shelves[scope];
    const generation = shelf.generation;
    const found = await load();
    if (found !== undefined && this.stopListening !== undefined && generation === shelf.generation) {
      forget(shelf, key);
      shelf.kept.set(key, found);
      shelf.bytes += found.bytes ?? 0;
      // Maps iterate in insertion order: the first entries are the oldest.
      for (const oldest of shelf.kept.keys()) {
        if (shelf.kept.size <= this.maxEntries && shelf.bytes <= this.maxBytes) break;
        forget(shelf, oldest);
      }
    }
    return found;
  }
}

/** The Node request under a Fastify one, or the object itself. */
function rawOf(request: object): object {
  const raw: unknown = (request as { raw?: unknown }).raw;
  return typeof raw === 'object' && raw !== null ? raw : request;
}

function forget(shelf: Shelf, key: string): void {
  const entry = shelf.kept.get(key);
  if (entry === undefined) return;
  shelf.kept.delete(key);
  shelf.bytes -= entry.bytes ?? 0;
}
