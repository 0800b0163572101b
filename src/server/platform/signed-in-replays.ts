import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { COMPRESSION_THRESHOLD_BYTES } from './compression';
import type { KeptPrivateReads } from './kept-private-reads';
import { replayHeadOf } from './public-cache';
import { keptSessionUser, SESSION_COOKIE, type Actor } from './sessions';

/**
 * A route's answer to a signed-in caller made from what is kept, without a query: undefined when
 * the full path must answer (the caller is one it treats otherwise, or something is not kept).
 */
export type SignedInAnswer = (actor: Actor) => Buffer | undefined;

/** What the session cookie's plugin does with a Cookie header (`@fastify/cookie`'s own functions). */
export interface SessionCookies {
  parse(header: string): Record<string, string | undefined>;
  unsign(raw: string): { valid: boolean; value: string | null };
}

/**
 * A route's whole answer to a signed-in caller, kept with its head as the app sent it (a replay of
 * public-cache.ts recorded under a key of the caller's own): undefined when none is kept.
 */
export type SignedInReplay = (
  actor: Actor,
  url: string,
  acceptEncoding: string | undefined,
) => { head: string[]; body: Buffer } | undefined;

interface Route {
  /** The body from what is kept, written with `head` (query-less request lines only). */
  answer?: SignedInAnswer;
  /** The headers the whole app gave the route's last plain answer (none yet: not answered here). */
  head?: string[];
  /** Or the whole answer kept for the caller. */
  replay?: SignedInReplay;
}

/**
 * Signed-in reads answered in the server's listener, before Fastify sees the request
 * (docs/decisions/0029-signed-in-reads-kept.md, Answered in the server's listener): a GET of a
 * route that registered here, whose session's user is kept and may answer the request (at once on
 * the embedded database, after the request's fence on PostgreSQL), is written from the user and
 * the headers the full path gave the route's last answer, as the public replays are
 * (public-cache.ts). Everything else goes through the app: no session cookie, a cookie that does
 * not verify, a user not kept or due to have the session extended, an answer the route declines
 * (undefined), one large enough to be compressed, and every request before the full path has
 * answered the route once.
 */
export class SignedInReplays {
  private readonly routes = new Map<string, Route>();
  /** Requests already tried here: the listener's, which the app's hook then meets again. */
  private readonly tried = new WeakSet<IncomingMessage>();
  /** Requests answered here (the app's `onResponse` still runs for those of its first hook). */
  private readonly written = new WeakSet<IncomingMessage>();
  private stopped = false;

  constructor(
    private readonly kept: KeptPrivateReads,
    private readonly cookies: SessionCookies,
    private readonly log: Pick<FastifyBaseLogger, 'error'>,
  ) {}

  /** GET `url` (the path alone, no query) may be answered with `answer`. */
  add(url: string, answer: SignedInAnswer): void {
    this.routes.set(url, { answer });
  }

  /** A GET of `path`, with any query, may be answered with the replay `replay` finds for the caller. */
  addReplay(path: string, replay: SignedInReplay): void {
    this.routes.set(path, { replay });
  }

  /** Whether `url` is a route whose full path's answers are recorded here. */
  has(url: string): boolean {
    return this.routes.get(url)?.answer !== undefined;
  }

  /**
   * Records the headers of a 200 the full path sent for `url` (all but the request's own id and
   * length): the next answers are written with them. An answer that was compressed, varies, or
   * sets a cookie is not recorded.
   */
  record(request: IncomingMessage, url: string, headers: Record<string, unknown>): void {
    const route = this.routes.get(url);
    if (route?.answer === undefined || this.written.has(request) || headers['content-encoding'] !== undefined)
      return;
    const head = replayHeadOf(headers);
    if (head !== undefined && !head.includes('vary')) route.head = head;
  }

  /** From now on every request goes through the app (it is closing). */
  stop(): void {
    this.stopped = true;
  }

  /**
   * Writes the answer to a GET of a route added here when its session's user is kept and fresh
   * for the request: true when written, false when the app must answer; a promise of either while
   * the request's fence is on its way (PostgreSQL). A caller it would not answer waits for no
   * fence; an error answers through the app when nothing was written yet.
   */
  write(
    request: IncomingMessage,
    response: ServerResponse,
    requestId: () => string,
  ): boolean | Promise<boolean> {
    try {
      return this.tryWrite(request, response, requestId);
    } catch (error) {
      return this.failed(response, error);
    }
  }

  private tryWrite(
    request: IncomingMessage,
    response: ServerResponse,
    requestId: () => string,
  ): boolean | Promise<boolean> {
    if (this.stopped || request.method !== 'GET' || request.headers['if-none-match'] !== undefined)
      return false;
    const url = request.url ?? '';
    const query = url.indexOf('?');
    const route = this.routes.get(query === -1 ? url : url.slice(0, query));
    if (route === undefined || (route.replay === undefined && (route.head === undefined || query !== -1)))
      return false;
    const sid = this.sessionId(request.headers.cookie);
    // Nothing kept: the app reads the database.
    const actor = sid === undefined ? undefined : keptSessionUser(this.kept, sid);
    if (sid === undefined || actor === undefined || this.tried.has(request)) return false;
    const found = this.found(route, actor, request);
    if (found === undefined) return false;
    this.tried.add(request);
    const fresh = this.kept.freshFor(request);
    if (fresh === true) return this.send(request, response, found, requestId);
    return fresh.then((ok) => {
      try {
        if (!ok || this.stopped) return false;
        // Read again: a notice heard while the fence was on its way may have dropped the user or
        // the answer, and the live cursor is read after the fence.
        const user = keptSessionUser(this.kept, sid);
        const now = user === undefined ? undefined : this.found(route, user, request);
        return now !== undefined && this.send(request, response, now, requestId);
      } catch (error) {
        return this.failed(response, error);
      }
    });
  }

  private sessionId(header: string | undefined): string | undefined {
    if (header === undefined) return undefined;
    const raw = this.cookies.parse(header)[SESSION_COOKIE];
    if (!raw) return undefined;
    const { valid, value } = this.cookies.unsign(raw);
    return valid && value ? value : undefined;
  }

  private found(
    route: Route,
    actor: Actor,
    request: IncomingMessage,
  ): { head: string[]; body: Buffer } | undefined {
    return route.replay
      ? route.replay(actor, request.url ?? '', request.headers['accept-encoding'])
      : this.plainAnswer(route, actor);
  }

  private send(
    request: IncomingMessage,
    response: ServerResponse,
    { head, body }: { head: string[]; body: Buffer },
    requestId: () => string,
  ): true {
    this.written.add(request);
    response.writeHead(200, [...head, 'x-request-id', requestId(), 'content-length', String(body.length)]);
    response.end(body);
    return true;
  }

  /** Nothing written yet: the app answers (and reports what fails there too); else the answer is cut. */
  private failed(response: ServerResponse, error: unknown): boolean {
    this.log.error({ err: error }, 'a signed-in read could not be answered from what is kept');
    if (!response.headersSent) return false;
    response.destroy();
    return true;
  }

  private plainAnswer(route: Route, actor: Actor): { head: string[]; body: Buffer } | undefined {
    const body = route.head === undefined ? undefined : route.answer?.(actor);
    // A larger body may be compressed, and its head says so: the app answers it.
    if (route.head === undefined || body === undefined || body.length >= COMPRESSION_THRESHOLD_BYTES)
      return undefined;
    return { head: route.head, body };
  }
}

/**
 * Records the full path's answers of the routes added, stops answering when the app closes, and
 * answers requests made with `app.inject()` (which pass through no server) in the first hook after
 * the sessions' own, as the listener does.
 */
export function registerSignedInReplays(app: FastifyInstance, replays: SignedInReplays): void {
  app.addHook('onRequest', (request, reply, done) => {
    const written = replays.write(request.raw, reply.raw, () => request.id);
    if (written === false) {
      done();
      return;
    }
    const settle = (wrote: boolean) => {
      if (wrote) void reply.hijack();
      else done();
    };
    if (written === true) settle(true);
    else written.then(settle, () => done());
  });
  app.addHook('preClose', (done) => {
    replays.stop();
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (
      request.method === 'GET' &&
      reply.statusCode === 200 &&
      !request.twoFactorSetupRequired &&
      replays.has(request.url)
    ) {
      replays.record(request.raw, request.url, reply.getHeaders());
    }
    done();
  });
}
