import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/client';

/**
 * The channel the catalog's triggers notify on (migration 0010): any statement that changes a
 * product, its stock, a review, a seller's name or address, or a category.
 */
export const CATALOG_CHANNEL = 'catalog_changed';
const BARRIER_PREFIX = 'barrier:';

/** A finished answer: the very bytes sent, and their strong validator. */
export interface CachedAnswer {
  body: Buffer;
  etag: string;
}

interface Entry extends CachedAnswer {
  storedAt: number;
}

export interface PublicCacheOptions {
  /** How long an answer is kept at most; notices drop it sooner (a safety net for a lost one). */
  ttlMs: number;
  /** The bytes of all answers kept together; the oldest go first above it. */
  maxBytes: number;
  /** How long a write waits to hear its own notice before it drops everything instead. */
  settleTimeoutMs: number;
  now: () => number;
}

export const DEFAULT_PUBLIC_CACHE_OPTIONS: PublicCacheOptions = {
  ttlMs: 10_000,
  maxBytes: 16 * 1024 * 1024,
  settleTimeoutMs: 1_000,
  now: () => performance.now(),
};

/** `"<sha-256 of the bytes>"`: equal bytes, equal tag, on every instance. */
export function strongEtagOf(body: Buffer): string {
  return `"${crypto.createHash('sha256').update(body).digest('base64url')}"`;
}

/** If-None-Match against the current tag, by the weak comparison RFC 9110 asks of it. */
export function isNotModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Finished answers of public catalog calls, kept in memory by their full key
 * (docs/decisions/0015-catalog-and-checkout-throughput.md). Correctness before speed:
 * - every change to what the answers show is heard through NOTIFY from the database's triggers,
 *   on every instance, and drops every answer (a generation number stops an answer computed before
 *   the notice from being stored after it);
 * - a write answered by this instance waits until this instance has heard every notice committed
 *   before it (`settle`), so the writer's next read never sees the old list;
 * - nothing is kept while the listener is not running, or after it reconnects.
 */
export class PublicAnswerCache {
  private readonly entries = new Map<string, Entry>();
  private readonly building = new Map<string, { generation: number; answer: Promise<CachedAnswer> }>();
  private readonly barriers = new Map<string, () => void>();
  private bytes = 0;
  private generation = 0;
  private pending = 0;
  private stopListening: (() => Promise<void>) | undefined;

  constructor(
    private readonly database: Pick<Database, 'db' | 'listen'>,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
    private readonly options: PublicCacheOptions = DEFAULT_PUBLIC_CACHE_OPTIONS,
  ) {}

  async start(): Promise<void> {
    try {
      this.stopListening = await this.database.listen(CATALOG_CHANNEL, {
        onNotify: (payload) => this.hear(payload),
        // Notices sent while the connection was down are lost: start again from nothing.
        onReconnect: () => this.clear(),
      });
    } catch (error) {
      this.log.warn({ err: error }, 'catalog answers are not cached: cannot listen for changes');
    }
  }

  async stop(): Promise<void> {
    const stop = this.stopListening;
    this.stopListening = undefined;
    this.clear();
    for (const release of this.barriers.values()) release();
    await stop?.();
  }

  /** Whether answers are kept at all (only while changes can be heard). */
  get isActive(): boolean {
    return this.stopListening !== undefined;
  }

  /** How many answers are kept (tests look). */
  get size(): number {
    return this.entries.size;
  }

  /** Drops every answer, and any being computed from before this moment. */
  clear(): void {
    this.generation++;
    this.entries.clear();
    this.building.clear();
    this.bytes = 0;
  }

  /**
   * The answer kept under `key`, or `build`'s, kept for the next callers. Callers asking for the
   * same key while it is built share one build.
   */
  async answer(key: string, build: () => Promise<Buffer>): Promise<CachedAnswer> {
    if (!this.isActive) return finish(await build());
    const kept = this.entries.get(key);
    if (kept && this.options.now() - kept.storedAt < this.options.ttlMs) return kept;
    if (kept) this.forget(key, kept);
    const generation = this.generation;
    const running = this.building.get(key);
    if (running && running.generation === generation) return running.answer;
    this.pending++;
    const answer = build().then(finish);
    this.building.set(key, { generation, answer });
    try {
      const done = await answer;
      if (generation === this.generation) this.keep(key, done);
      return done;
    } finally {
      this.pending--;
      if (this.building.get(key)?.answer === answer) this.building.delete(key);
    }
  }

  /**
   * Waits until every change committed before now has been heard (a notice of our own, sent now,
   * arrives after all of them); drops everything if it does not come in time. Cheap when nothing
   * is kept or being built, which is when nothing could be stale.
   */
  async settle(): Promise<void> {
    if (!this.isActive || (this.entries.size === 0 && this.pending === 0)) return;
    const token = crypto.randomBytes(12).toString('base64url');
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<boolean>((resolve) => {
      this.barriers.set(token, () => resolve(true));
      timer = setTimeout(() => resolve(false), this.options.settleTimeoutMs);
    });
    try {
      await this.database.db.execute(sql`select pg_notify(${CATALOG_CHANNEL}, ${BARRIER_PREFIX + token})`);
      if (!(await heard)) this.clear();
    } catch (error) {
      this.log.warn({ err: error }, 'catalog answers dropped: could not confirm the changes were heard');
      this.clear();
    } finally {
      clearTimeout(timer);
      this.barriers.delete(token);
    }
  }

  private hear(payload: string): void {
    if (payload.startsWith(BARRIER_PREFIX)) {
      this.barriers.get(payload.slice(BARRIER_PREFIX.length))?.();
      return;
    }
    this.clear();
  }

  private keep(key: string, answer: CachedAnswer): void {
    if (answer.body.length > this.options.maxBytes) return;
    const old = this.entries.get(key);
    if (old) this.forget(key, old);
    this.entries.set(key, { ...answer, storedAt: this.options.now() });
    this.bytes += answer.body.length;
    // Maps iterate in insertion order: the first entries are the oldest.
    for (const [oldestKey, oldest] of this.entries) {
      if (this.bytes <= this.options.maxBytes) break;
      this.forget(oldestKey, oldest);
    }
  }

  private forget(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.body.length;
  }
}

function finish(body: Buffer): CachedAnswer {
  return { body, etag: strongEtagOf(body) };
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Starts and stops the cache with the app, and makes every write answered here wait, before its
 * answer leaves, until the changes it committed have reached the cache.
 */
export function registerPublicCache(app: FastifyInstance, cache: PublicAnswerCache): void {
  app.addHook('onReady', () => cache.start());
  app.addHook('onClose', () => cache.stop());
  app.addHook('onSend', async (request) => {
    if (WRITE_METHODS.has(request.method)) await cache.settle();
  });
}

/**
 * Sends a cached answer: 304 when the caller already holds these bytes, else the bytes as JSON,
 * with their ETag either way.
 */
export function sendCachedAnswer(request: FastifyRequest, reply: FastifyReply, answer: CachedAnswer) {
  void reply.header('etag', answer.etag);
  if (isNotModified(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(answer.body);
}
