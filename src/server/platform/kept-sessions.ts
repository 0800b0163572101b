import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';

/**
 * The channel the sessions' and users' triggers notify on (migration 0025): any statement that
 * changes or deletes a session, or changes or deletes a user.
 */
export const SESSIONS_CHANNEL = 'sessions_changed';

interface KeptActor<A> {
  actor: A;
  /** When the session ends (ms since the epoch). */
  expire: number;
}

/**
 * The signed-in users of recent sessions, kept in memory on the embedded database only
 * (docs/decisions/0015-catalog-and-checkout-throughput.md, Signed-in reads). That database has one
 * app instance (its data directory's lock), so every change comes through this process: every
 * session or user changed or deleted (a sign-out, a suspension, a role granted or taken, a password
 * changed) sends a notice from the database's triggers that drops every kept user, and every
 * write answered over HTTP drops them too before its answer leaves. A load that began before a drop
 * is not kept (a generation number). On PostgreSQL, where other instances change sessions too and
 * their notices arrive a moment later, nothing is kept: each request reads its session.
 */
export class KeptSessions<A> {
  private readonly kept = new Map<string, KeptActor<A>>();
  private generation = 0;
  private stopListening: (() => Promise<void>) | undefined;

  constructor(
    private readonly database: Pick<Database, 'listen'>,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
    /** At most this many sessions are kept; the oldest go first. */
    private readonly maxSessions = 10_000,
  ) {}

  async start(): Promise<void> {
    try {
      this.stopListening = await this.database.listen(SESSIONS_CHANNEL, {
        onNotify: () => this.clear(),
        onReconnect: () => this.clear(),
      });
    } catch (error) {
      this.log.warn({ err: error }, 'sessions are not kept: cannot listen for changes');
    }
  }

  async stop(): Promise<void> {
    const stop = this.stopListening;
    this.stopListening = undefined;
    this.clear();
    await stop?.();
  }

  /** How many sessions are kept (tests look). */
  get size(): number {
    return this.kept.size;
  }

  /** Drops every kept user, and any being loaded from before this moment. */
  clear(): void {
    this.generation++;
    this.kept.clear();
  }

  /** The kept user of `sid`, while its session lasts; undefined when it must be read. */
  get(sid: string, now: number): KeptActor<A> | undefined {
    const entry = this.kept.get(sid);
    if (entry === undefined) return undefined;
    if (entry.expire <= now) {
      this.kept.delete(sid);
      return undefined;
    }
    return entry;
  }

  /**
   * Loads the user of `sid` with `load` (undefined: no valid session) and keeps what it found,
   * unless a change was heard meanwhile.
   */
  async load(sid: string, load: () => Promise<KeptActor<A> | undefined>): Promise<KeptActor<A> | undefined> {
    const generation = this.generation;
    const found = await load();
    if (found !== undefined && this.stopListening !== undefined && generation === this.generation) {
      this.kept.delete(sid);
      this.kept.set(sid, found);
      // Maps iterate in insertion order: the first entries are the oldest.
      for (const oldest of this.kept.keys()) {
        if (this.kept.size <= this.maxSessions) break;
        this.kept.delete(oldest);
      }
    }
    return found;
  }
}
