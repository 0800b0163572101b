import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';

/**
 * The channel the triggers of migration 0025 notify on: any statement that changes or deletes a
 * session or a user, or changes what a list of orders shows (orders, their items, refunds,
 * disputes, pickup addresses).
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
 * What signed-in reads find, kept in memory on the embedded database only
 * (docs/decisions/0015-catalog-and-checkout-throughput.md, Signed-in reads): the users of recent
 * sessions, and lists of own orders as sent. That database has one app instance (its data
 * directory's lock), so every change comes through this process, and a notice arrives with its
 * commit: every statement that changes or deletes a session or a user (a sign-out, a suspension, a
 * role granted or taken, a password changed) or what an order list shows sends a notice from the
 * database's triggers that drops everything kept, and every write answered over HTTP, sign-in and
 * sign-out drop everything too before their answer leaves. A load that began before a drop is not
 * kept (a generation number). On PostgreSQL, where other instances write too and their notices
 * arrive a moment later, nothing is kept: each request reads its session and its data.
 * Which tables and statements must send the notice: `CACHE_INVALIDATION` in cache-invalidation.ts
 * (docs/decisions/0015-catalog-and-checkout-throughput.md, What invalidates what); a read that
 * comes to show another table or column is added there first.
 */
export class KeptPrivateReads {
  private readonly kept = new Map<string, Kept<unknown>>();
  private generation = 0;
  private bytes = 0;
  private stopListening: (() => Promise<void>) | undefined;

  constructor(
    private readonly database: Pick<Database, 'listen'>,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
    /** At most this many reads are kept, holding at most this many bytes; the oldest go first. */
    private readonly maxEntries = 10_000,
    private readonly maxBytes = 16 * 1024 * 1024,
  ) {}

  async start(): Promise<void> {
    try {
      this.stopListening = await this.database.listen(PRIVATE_READS_CHANNEL, {
        onNotify: () => this.clear(),
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

  /** How many reads are kept (tests look). */
  get size(): number {
    return this.kept.size;
  }

  /** Drops everything kept, and any load begun before this moment. */
  clear(): void {
    this.generation++;
    this.kept.clear();
    this.bytes = 0;
  }

  /** What is kept under `key`, until its `expire`; undefined when it must be read. */
  get<V>(key: string, now: number): Kept<V> | undefined {
    const entry = this.kept.get(key) as Kept<V> | undefined;
    if (entry === undefined) return undefined;
    if (entry.expire <= now) {
      this.forget(key);
      return undefined;
    }
    return entry;
  }

  /**
   * Reads with `load` (undefined: nothing to keep, such as no valid session) and keeps what it
   * found under `key`, unless a change was heard meanwhile.
   */
  async load<V>(key: string, load: () => Promise<Kept<V> | undefined>): Promise<Kept<V> | undefined> {
    const generation = this.generation;
    const found = await load();
    if (found !== undefined && this.stopListening !== undefined && generation === this.generation) {
      this.forget(key);
      this.kept.set(key, found);
      this.bytes += found.bytes ?? 0;
      // Maps iterate in insertion order: the first entries are the oldest.
      for (const oldest of this.kept.keys()) {
        if (this.kept.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
        this.forget(oldest);
      }
    }
    return found;
  }

  private forget(key: string): void {
    const entry = this.kept.get(key);
    if (entry === undefined) return;
    this.kept.delete(key);
    this.bytes -= entry.bytes ?? 0;
  }
}
