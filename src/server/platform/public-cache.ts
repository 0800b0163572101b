import crypto from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { sql } from 'drizzle-orm';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifyServerOptions,
} from 'fastify';
import type { Database } from '../db/client';
import { isPublicRoute } from './access';
import { compress } from './compression';
import { SESSION_COOKIE } from './sessions';
import type { SignedInReplays } from './signed-in-replays';

/**
 * The channel the catalog's triggers notify on (migrations 0010 and 0024): any statement that
 * changes a product, its stock or images, a review, a seller's name, roles or address, a category,
 * or a seller's schedule or blackout dates.
 */
export const CATALOG_CHANNEL = 'catalog_changed';
const BARRIER_PREFIX = 'barrier:';

/** What a build made, and whether it may be kept for the next callers. */
export interface Built {
  readonly body: Buffer;
  readonly keepable: boolean;
  /**
   * When the answer stops being true by the clock alone (ms since the epoch on the app's clock):
   * it is not served from then on. Absent: only a change in the database makes it old.
   */
  readonly validUntil?: number;
}

/** A finished answer: the very bytes sent, and their strong validator. */
export interface CachedAnswer {
  readonly body: Buffer;
  readonly etag: string;
  /** Under which key it is kept; absent when it was not kept. */
  readonly key?: string;
}

/**
 * A kept answer as the app sent it once for one request line and Accept-Encoding: the status
 * line's headers (all but the request's own id and the length) and the bytes on the wire.
 */
interface Replay {
  head: string[];
  body: Buffer;
  /** Replayed only to requests without a session cookie (signed-in callers may be answered otherwise). */
  visitorsOnly: boolean;
}

interface Entry extends CachedAnswer {
  readonly key: string;
  storedAt: number;
  /** On the app's clock: not served from then on (Built's validUntil). */
  validUntil: number;
  /** By Accept-Encoding as sent ('' when absent). */
  replays: Map<string, Replay>;
  /** The request lines (path and query as sent) that lead to this answer and have replays. */
  urls: Set<string>;
  /** The answer's bytes and those of its replays' other bodies. */
  bytes: number;
}

/** Bounds on what one answer keeps for replaying: request lines and encodings seen. */
const MAX_URLS_PER_ANSWER = 8;
const MAX_REPLAYS_PER_ANSWER = 4;

export interface PublicCacheOptions {
  /** How long an answer is kept at most; notices drop it sooner (a safety net for a lost one). */
  ttlMs: number;
  /** The bytes of all answers kept together; the oldest go first above it. */
  maxBytes: number;
  /** How long a write waits to hear its own notice before it drops everything instead. */
  settleTimeoutMs: number;
  now: () => number;
  /** The app's clock, in ms since the epoch, against which answers' `validUntil` is read. */
  clock: () => number;
}

export const DEFAULT_PUBLIC_CACHE_OPTIONS: PublicCacheOptions = {
  ttlMs: 10_000,
  maxBytes: 16 * 1024 * 1024,
  settleTimeoutMs: 1_000,
  now: () => performance.now(),
  clock: () => Date.now(),
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
 * Finished answers of public catalog calls, and visitors' pages made of them, kept in memory by
 * their full key (docs/decisions/0015-catalog-and-checkout-throughput.md; pages:
 * docs/decisions/0014-first-load.md, The first screen in the HTML). Correctness before speed:
 * - every change to what the answers show is heard through NOTIFY from the database's triggers,
 *   on every instance, and drops every answer (a generation number stops an answer computed before
 *   the notice from being stored after it);
 * - a write answered by this instance waits until this instance has heard every notice committed
 *   before it (`settle`), so the writer's next read never sees the old list;
 * - nothing is kept while the listener is not running, or after it reconnects.
 * Which tables, statements and columns must send the notice: `CACHE_INVALIDATION` in
 * cache-invalidation.ts (docs/decisions/0015-catalog-and-checkout-throughput.md, What invalidates
 * what); an answer that comes to show another table or column is added there first.
 */
export class PublicAnswerCache {
  private readonly entries = new Map<string, Entry>();
  /** Request lines with replays, to the answer they lead to. */
  private readonly replayUrls = new Map<string, Entry>();
  private readonly building = new Map<
    string,
    { generation: number; answer: Promise<{ answer: CachedAnswer; keepable: boolean; validUntil: number }> }
  >();
  private readonly barriers = new Map<string, () => void>();
  private bytes = 0;
  private generation = 0;
  private pending = 0;
  private stopListening: (() => Promise<void>) | undefined;
  private replaysStopped = false;

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

  /** From now on every request goes through the app (it is closing). */
  stopReplays(): void {
    this.replaysStopped = true;
  }

  /** Whether answers are kept at all (only while changes can be heard). */
  get isActive(): boolean {
    return this.stopListening !== undefined;
  }

  /** How many answers are kept (tests look). */
  get size(): number {
    return this.entries.size;
  }

  /** How many request lines can be answered by a replay (tests look). */
  get replayable(): number {
    return this.replayUrls.size;
  }

  /** Drops every answer, and any being computed from before this moment. */
  clear(): void {
    this.generation++;
    this.entries.clear();
    this.replayUrls.clear();
    this.building.clear();
    this.bytes = 0;
  }

  /**
   * The answer kept under `key`, or `build`'s, kept for the next callers. Callers asking for the
   * same key while it is built share one build.
   */
  async answer(key: string, build: () => Promise<Buffer>): Promise<CachedAnswer> {
    return this.answerIfKeepable(key, async () => ({ body: await build(), keepable: true }));
  }

  /**
   * As `answer`, for a build that may find that what it made is not for the next callers (a page
   * rendered while one of its API calls failed): that answer goes to the callers who shared the
   * build and is not kept.
   */
  async answerIfKeepable(key: string, build: () => Promise<Built>): Promise<CachedAnswer> {
    if (!this.isActive) return finish((await build()).body);
    const kept = this.entries.get(key);
    if (kept && this.isFresh(kept)) return kept;
    if (kept) this.forget(key, kept);
    const generation = this.generation;
    const running = this.building.get(key);
    if (running && running.generation === generation) return (await running.answer).answer;
    this.pending++;
    const answer = build().then(({ body, keepable, validUntil = Infinity }) => ({
      answer: finish(body),
      keepable,
      validUntil,
    }));
    this.building.set(key, { generation, answer });
    try {
      const done = await answer;
      if (!done.keepable || generation !== this.generation) return done.answer;
      return this.keep(key, done.answer, done.validUntil) ?? done.answer;
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

  /**
   * What the app sent for `url` (path and query as requested) with this Accept-Encoding, to send
   * again without running the request through the app: only while `answer` is the one kept.
   * The route decides that the answer depends on nothing else (sendCachedAnswer's `sameForAll`).
   */
  remember(
    url: string,
    acceptEncoding: string,
    answer: CachedAnswer,
    replay: { head: string[]; body: Buffer; visitorsOnly: boolean },
  ): void {
    const entry = this.entryToRecord(url, acceptEncoding, answer);
    if (!entry) return;
    const { body } = replay;
    entry.replays.set(acceptEncoding, replay);
    entry.urls.add(url);
    this.replayUrls.set(url, entry);
    if (body !== entry.body) {
      entry.bytes += body.length;
      this.bytes += body.length;
      this.trim();
    }
  }

  /** Whether `remember` would record this (it checks again: the answer may go meanwhile). */
  wouldRemember(url: string, acceptEncoding: string, answer: CachedAnswer): boolean {
    return this.entryToRecord(url, acceptEncoding, answer) !== undefined;
  }

  private entryToRecord(url: string, acceptEncoding: string, answer: CachedAnswer): Entry | undefined {
    if (!this.isActive || answer.key === undefined) return undefined;
    const entry = this.entries.get(answer.key);
    if (entry !== answer || entry.replays.has(acceptEncoding)) return undefined;
    if (entry.replays.size >= MAX_REPLAYS_PER_ANSWER) return undefined;
    if (!entry.urls.has(url) && entry.urls.size >= MAX_URLS_PER_ANSWER) return undefined;
    const elsewhere = this.replayUrls.get(url);
    if (elsewhere !== undefined && elsewhere !== entry) return undefined;
    return entry;
  }

  /**
   * The replay for this request line and Accept-Encoding, while its answer is kept and fresh;
   * one for visitors only is not for a request that carries a session cookie.
   */
  replayOf(url: string, acceptEncoding: string | undefined, hasSession: boolean): Replay | undefined {
    if (this.replaysStopped) return undefined;
    const entry = this.replayUrls.get(url);
    if (entry === undefined || !this.isFresh(entry)) return undefined;
    const replay = entry.replays.get(acceptEncoding ?? '');
    return replay?.visitorsOnly && hasSession ? undefined : replay;
  }

  private isFresh(entry: Entry): boolean {
    return (
      this.options.now() - entry.storedAt < this.options.ttlMs && this.options.clock() < entry.validUntil
    );
  }

  private keep(key: string, answer: CachedAnswer, validUntil: number): Entry | undefined {
    if (answer.body.length > this.options.maxBytes) return undefined;
    const old = this.entries.get(key);
    if (old) this.forget(key, old);
    const entry: Entry = {
      body: answer.body,
      etag: answer.etag,
      key,
      storedAt: this.options.now(),
      validUntil,
      replays: new Map(),
      urls: new Set(),
      bytes: answer.body.length,
    };
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    this.trim();
    return entry;
  }

  /** Drops the oldest answers until the rest fit. */
  private trim(): void {
    // Maps iterate in insertion order: the first entries are the oldest.
    for (const [oldestKey, oldest] of this.entries) {
      if (this.bytes <= this.options.maxBytes) break;
      this.forget(oldestKey, oldest);
    }
  }

  private forget(key: string, entry: Entry): void {
    this.entries.delete(key);
    for (const url of entry.urls) this.replayUrls.delete(url);
    this.bytes -= entry.bytes;
  }
}

function finish(body: Buffer): CachedAnswer {
  return { body, etag: strongEtagOf(body) };
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyRequest {
    /** The kept answer this request was sent, when it is the same for every caller of its URL. */
    sharedAnswer: CachedAnswer | null;
    /** The kept answer is the same for every visitor of its URL, not for a signed-in caller. */
    sharedWithVisitorsOnly: boolean;
    /** Where its replay is recorded when not under the request line (`sameAt`). */
    replayKey: string | null;
  }
}

/** Headers that belong to one request or are Node's to write, never replayed. */
const NOT_REPLAYED = new Set(['x-request-id', 'content-length', 'date', 'connection', 'keep-alive']);

/**
 * The headers as a flat list for `writeHead`; undefined when the answer sets a cookie (personal) or
 * says it varies with a request header other than Accept-Encoding (the replay's only other key).
 */
export function replayHeadOf(headers: Record<string, unknown>): string[] | undefined {
  const head: string[] = [];
  const vary = [headers.vary ?? []].flat().join(',').toLowerCase().split(',');
  if (vary.some((token) => token.trim() !== '' && token.trim() !== 'accept-encoding')) return undefined;
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'set-cookie') return undefined;
    if (value === undefined || NOT_REPLAYED.has(name)) continue;
    for (const item of Array.isArray(value) ? value : [value]) head.push(name, String(item));
  }
  return head;
}

/**
 * Starts and stops the cache with the app; makes every write answered here wait, before its
 * answer leaves, until the changes it committed have reached the cache; and answers a repeated
 * public call from memory before any other hook runs.
 *
 * The replay (docs/decisions/0015-catalog-and-checkout-throughput.md): when a route sends a kept
 * answer that is the same for every caller of its URL (`sendCachedAnswer(..., { sameForAll })`),
 * the headers the whole app gave it (security headers, caching, ETag, encoding, Vary; everything
 * but the request id and length) and the bytes on the wire are recorded against the request line
 * and its Accept-Encoding. The next GET of the same line with the same Accept-Encoding and no
 * If-None-Match is written straight from that record, with a request id of its own, as long as
 * the answer is still the one kept: a catalog change drops it with the answer. Register this
 * before the other hooks; a hook with effects beyond the answer (counting, rate limits) would be
 * skipped for a replayed GET, so such a hook must not apply to these public reads.
 */
export function registerPublicCache(app: FastifyInstance, cache: PublicAnswerCache): void {
  app.addHook('onReady', () => cache.start());
  app.addHook('onClose', () => cache.stop());
  app.decorateRequest('sharedAnswer', null);
  app.decorateRequest('sharedWithVisitorsOnly', false);
  app.decorateRequest('replayKey', null);

  // The server's own listener answers replays before Fastify sees the request (keptReadsServer);
  // app.inject() does not pass through a server, so the same replay is also the first hook.
  app.addHook('onRequest', (request, reply, done) => {
    if (writeReplay(cache, request.raw, reply.raw, request.id)) {
      void reply.hijack();
      return;
    }
    done();
  });
  // A closing instance answers 503 to new requests (Fastify's own rule): no replay from then on.
  app.addHook('preClose', (done) => {
    cache.stopReplays();
    done();
  });

  app.addHook('onSend', (request, _reply, _payload, done) => {
    if (!WRITE_METHODS.has(request.method)) {
      done();
      return;
    }
    cache.settle().then(
      () => done(),
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
  });

  // After the answer has left, every hook's headers are on it: record them with the bytes sent.
  app.addHook('onResponse', (request, reply, done) => {
    const answer = request.sharedAnswer;
    // Replays skip the access check: only a public route's answer is recorded under its request
    // line (decision 0011); a signed-in one under a key of its callers' own (`sameAt`), which only
    // signed-in-replays.ts looks up, for a caller it has found signed in.
    const route = request.routeOptions.url;
    if (
      answer !== null &&
      request.method === 'GET' &&
      reply.statusCode === 200 &&
      route !== undefined &&
      (request.replayKey !== null || isPublicRoute(request.method, route))
    ) {
      recordReplay(cache, request, reply, answer).catch((error: unknown) =>
        request.log.warn({ err: error }, 'could not record a kept answer for replay'),
      );
    }
    done();
  });
}

/**
 * Writes the replay of a GET without If-None-Match when one is kept for its request line and
 * Accept-Encoding (and, for a visitors-only one, the request has no session cookie): the headers
 * the full path produced, an id of its own, the bytes on the wire. Whether it wrote.
 */
export function writeReplay(
  cache: PublicAnswerCache,
  request: IncomingMessage,
  response: ServerResponse,
  requestId: string,
): boolean {
  if (request.method !== 'GET' || request.headers['if-none-match'] !== undefined) return false;
  const replay = cache.replayOf(
    request.url ?? '',
    request.headers['accept-encoding'],
    hasSessionCookie(request.headers.cookie),
  );
  if (!replay) return false;
  response.writeHead(200, [
    ...replay.head,
    'x-request-id',
    requestId,
    'content-length',
    String(replay.body.length),
  ]);
  response.end(replay.body);
  return true;
}

/**
 * The HTTP server Fastify would make itself (its timeouts and limits), whose request listener
 * writes a kept public answer, or a signed-in one (signed-in-replays.ts), before handing the
 * request to Fastify: a replay then costs the parse of the request line and one write, with no
 * routing, request objects or hooks (docs/decisions/0015-catalog-and-checkout-throughput.md,
 * Replays in the server's listener, health kept). `readsOf` gives what the app has made once it
 * has; `newId` the request id Fastify would give.
 */
export function keptReadsServer(
  readsOf: () => { cache?: PublicAnswerCache; signedIn?: SignedInReplays },
  newId: () => string,
): NonNullable<FastifyServerOptions['serverFactory']> {
  return (handler, options) => {
    const server = http.createServer(options.http ?? {}, (request, response) => {
      const { cache, signedIn } = readsOf();
      if (cache !== undefined && writeReplay(cache, request, response, newId())) return;
      const written = signedIn?.write(request, response, newId) ?? false;
      if (written === false) handler(request, response);
      else if (written !== true)
        written.then(
          (wrote) => wrote || handler(request, response),
          () => handler(request, response),
        );
    });
    const { keepAliveTimeout, requestTimeout, connectionTimeout, maxRequestsPerSocket } = options;
    if (typeof keepAliveTimeout === 'number') server.keepAliveTimeout = keepAliveTimeout;
    if (typeof requestTimeout === 'number') server.requestTimeout = requestTimeout;
    if (typeof connectionTimeout === 'number') server.setTimeout(connectionTimeout);
    if (typeof maxRequestsPerSocket === 'number' && maxRequestsPerSocket > 0)
      server.maxRequestsPerSocket = maxRequestsPerSocket;
    return server;
  };
}

/**
 * Records what was sent: the answer's own bytes when it went out plain, or the same compression
 * of them when the answer says it was compressed (compression.ts, the same function and settings),
 * as long as the length on the wire matches.
 */
async function recordReplay(
  cache: PublicAnswerCache,
  request: FastifyRequest,
  reply: FastifyReply,
  answer: CachedAnswer,
): Promise<void> {
  const acceptEncoding = request.headers['accept-encoding'] ?? '';
  const key = request.replayKey ?? request.url;
  if (!cache.wouldRemember(key, acceptEncoding, answer)) return;
  const headers = reply.getHeaders();
  const head = replayHeadOf(headers);
  if (!head) return;
  const encoding = headers['content-encoding'];
  let body: Buffer;
  if (encoding === undefined) body = answer.body;
  else if (encoding === 'br' || encoding === 'gzip') body = await compress(answer.body, encoding);
  else return;
  if (String(headers['content-length']) !== String(body.length)) return;
  cache.remember(key, acceptEncoding, answer, {
    head,
    body,
    visitorsOnly: request.sharedWithVisitorsOnly,
  });
}

/** Where a signed-in caller's replay of `url` is recorded: never a request line (those start with '/'). */
export function signedInReplayKey(sameAt: string, url: string): string {
  return `@${sameAt} ${url}`;
}

/** Whether a Cookie header names the session cookie, signed in or not (a visitor's replay is not for it). */
function hasSessionCookie(cookie: string | undefined): boolean {
  return cookie !== undefined && SESSION_COOKIE_PATTERN.test(cookie);
}
const SESSION_COOKIE_PATTERN = new RegExp(`(?:^|;)\\s*${SESSION_COOKIE}=`);

/**
 * Sends a cached answer: 304 when the caller already holds these bytes, else the bytes as JSON,
 * with their ETag either way. `sameForAll`: the answer depends on the URL alone (not on the
 * session or the caller's place), so the next caller of the same URL may be sent it as recorded;
 * `'visitors'`: the same for every caller without a session, so only those are sent it so.
 * `sameAt`: the same for every signed-in caller of the URL whose own key this is (their place), so
 * it is recorded under that key for signed-in-replays.ts.
 */
export function sendCachedAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: CachedAnswer,
  { sameForAll = false, sameAt }: { sameForAll?: boolean | 'visitors'; sameAt?: string } = {},
) {
  void reply.header('etag', answer.etag);
  if (isNotModified(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
  if (sameForAll !== false) {
    request.sharedAnswer = answer;
    request.sharedWithVisitorsOnly = sameForAll === 'visitors';
  } else if (sameAt !== undefined) {
    request.sharedAnswer = answer;
    request.replayKey = signedInReplayKey(sameAt, request.url);
  }
  return reply.type('application/json; charset=utf-8').send(answer.body);
}
