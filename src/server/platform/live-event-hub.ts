import { and, arrayContains, asc, eq, gt, inArray, isNotNull, lt, max, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db, StopListening } from '../db/client';
import { liveEvents, users } from '../db/schema';
import { LIVE_REPLAY_LIMIT, LIVE_REPLAY_WINDOW_MS, liveEventSchema } from '../../domain/live-events';
import { LIVE_EVENTS_CHANNEL, type SessionsEnded, type StoredLiveEvent } from './live-events';
import { canReceiveLiveEvent, type DriverRecord, type PolicyActor } from './policy';

/** The user a stream belongs to, as the policy decides who receives what. */
export type LiveUser = PolicyActor & DriverRecord;

/** `id: 42` and `data: {...}`: one server-sent event. */
export function sseFrame(event: StoredLiveEvent): string {
  return `id: ${event.id}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/** Ids a stream has sent, so an event heard twice (a replay and a notification) goes out once. */
const REMEMBERED_IDS = 500;

/** Who a stream is, and how it is ended from outside (the user's sessions ended). */
export interface StreamOwner {
  /** The session the stream was opened with. */
  sessionId: string | null;
  end: () => void;
}

class Subscriber {
  private readonly sent = new Set<number>();
  private buffered: StoredLiveEvent[] | null = [];

  constructor(
    readonly userId: string,
    private readonly write: (frame: string) => void,
    readonly owner: StreamOwner | undefined,
  ) {}

  deliver(event: StoredLiveEvent): void {
    if (this.buffered) {
      this.buffered.push(event);
      return;
    }
    if (this.sent.has(event.id)) return;
    this.sent.add(event.id);
    if (this.sent.size > REMEMBERED_IDS) {
      const oldest = this.sent.values().next().value;
      if (oldest !== undefined) this.sent.delete(oldest);
    }
    this.write(sseFrame(event));
  }

  /** After the replay: sends what arrived meanwhile and goes live. */
  goLive(replayed: readonly StoredLiveEvent[]): void {
    const meanwhile = this.buffered ?? [];
    this.buffered = null;
    for (const event of [...replayed, ...meanwhile].sort((a, b) => a.id - b.id)) this.deliver(event);
  }
}

const NO_DOCUMENTS: DriverRecord = {
  vehicleImageUrl: null,
  licenseImageUrl: null,
  trailerImageUrl: null,
  isVerified: false,
};

function parseStored(payload: unknown): StoredLiveEvent | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const row = payload as Record<string, unknown>;
  const data = liveEventSchema.safeParse(row.data);
  if (!data.success || typeof row.id !== 'number' || !Array.isArray(row.audience)) return undefined;
  return {
    id: row.id,
    audience: row.audience.filter((id): id is string => typeof id === 'string'),
    forDrivers: row.forDrivers === true,
    trailerOnly: row.trailerOnly === true,
    data: data.data,
  };
}

function parseSessionsEnded(payload: unknown): SessionsEnded | undefined {
  if (typeof payload !== 'object' || payload === null || !('sessionsEnded' in payload)) return undefined;
  const ended: unknown = payload.sessionsEnded;
  if (typeof ended !== 'object' || ended === null) return undefined;
  const { userId, keepSessionId } = ended as Record<string, unknown>;
  if (typeof userId !== 'string') return undefined;
  return { userId, keepSessionId: typeof keepSessionId === 'string' ? keepSessionId : null };
}

/** The start of the replay window by the database's clock, the one that stamped the events. */
const WINDOW_START: SQL<Date> = sql`now() - make_interval(secs => ${LIVE_REPLAY_WINDOW_MS / 1000})`;

/** Every ten minutes events older than the replay window are removed. */
const PRUNE_EVERY_MS = 10 * 60 * 1000;

/**
 * The streams of this app instance (docs/rules/live-updates.md, Live updates): hears every published
 * event through the database's LISTEN, and hands each to the streams whose user the access policy
 * lets receive it. Several instances each hold their own streams and all hear every event.
 */
export class LiveEventHub {
  private readonly subscribers = new Set<Subscriber>();
  private stopListening: StopListening | undefined;
  private pruneTimer: NodeJS.Timeout | undefined;
  private lastHeardId = 0;
  /** Whether `cursor` answers from memory: set once the newest id has been read after listening. */
  private cursorHeard = false;

  constructor(
    private readonly database: Pick<Database, 'db' | 'listen' | 'kind'>,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'error'>,
  ) {}

  private get db(): Db {
    return this.database.db;
  }

  async start(): Promise<void> {
    this.stopListening = await this.database.listen(LIVE_EVENTS_CHANNEL, {
      onNotify: (payload) => this.hear(payload),
      // Events published while the connection was down are read from the table.
      onReconnect: () => void this.catchUp(),
    });
    this.pruneTimer = setInterval(() => void this.prune(), PRUNE_EVERY_MS);
    this.pruneTimer.unref();
    // From now on the newest id heard is the newest committed: on the embedded database at once
    // (one instance, its notices arrive with the commit), on PostgreSQL after a fence; `cursor`
    // needs no query (docs/decisions/0029-signed-in-reads-kept.md, What is kept).
    this.lastHeardId = Math.max(this.lastHeardId, await this.newestId());
    this.cursorHeard = true;
  }

  async stop(): Promise<void> {
    clearInterval(this.pruneTimer);
    this.cursorHeard = false;
    this.subscribers.clear();
    await this.stopListening?.();
    this.stopListening = undefined;
  }

  /** How many streams are open (the events tests wait for a client to be connected). */
  get size(): number {
    return this.subscribers.size;
  }

  /**
   * Opens a stream for `user`: first the events after `afterId` it may receive (a browser that
   * reconnects), then every new one. Answers the function that closes it.
   */
  async subscribe(
    user: LiveUser,
    afterId: number | null,
    write: (frame: string) => void,
    owner?: StreamOwner,
  ): Promise<() => void> {
    const subscriber = new Subscriber(user.id, write, owner);
    this.subscribers.add(subscriber);
    const close = () => void this.subscribers.delete(subscriber);
    try {
      subscriber.goLive(afterId === null ? [] : await this.backlog(user, afterId));
    } catch (error) {
      close();
      throw error;
    }
    return close;
  }

  /**
   * The live cursor: the id of the newest event, 0 when there is none. The ids come from the
   * database's sequence, so a cursor read on one instance is good on every other. A page reads it
   * with its first data and its first stream catches up from it (docs/rules/live-updates.md, Live updates).
   */
  async cursor(fresh?: true | Promise<boolean>): Promise<number> {
    if (!this.cursorHeard) return this.newestId();
    if (this.database.kind === 'pglite') return this.lastHeardId;
    // A fence sent after the request arrived (`fresh`, the request's own, or one of its own).
    const fenced = fresh ?? this.stopListening?.fence?.() ?? false;
    return fenced === true || (await fenced) ? this.lastHeardId : this.newestId();
  }

  /**
   * The cursor from memory, for a request known to be fresh (the embedded database, or after its
   * fence: docs/decisions/0029-signed-in-reads-kept.md, The fence); undefined before listening.
   */
  heardCursor(): number | undefined {
    return this.cursorHeard ? this.lastHeardId : undefined;
  }

  private async newestId(): Promise<number> {
    const [row] = await this.db.select({ newest: max(liveEvents.id) }).from(liveEvents);
    return row?.newest ?? 0;
  }

  /**
   * The events after `afterId`, within the replay window, that `user` may receive, oldest first.
   * Only events naming the user or offered to drivers are read, so other people's events never use
   * up the replay limit; the access policy then decides each one.
   */
  async backlog(user: LiveUser, afterId: number): Promise<StoredLiveEvent[]> {
    const rows = await this.db
      .select()
      .from(liveEvents)
      .where(
        and(
          gt(liveEvents.id, afterId),
          gt(liveEvents.createdAt, WINDOW_START),
          or(arrayContains(liveEvents.audience, [user.id]), eq(liveEvents.forDrivers, true)),
        ),
      )
      .orderBy(asc(liveEvents.id))
      .limit(LIVE_REPLAY_LIMIT);
    return rows
      .map((row) => parseStored(row))
      .filter((event): event is StoredLiveEvent => event !== undefined && canReceiveLiveEvent(user, event));
  }

  private hear(payload: string): void {
    let event: StoredLiveEvent | undefined;
    try {
      const parsed: unknown = JSON.parse(payload);
      const ended = parseSessionsEnded(parsed);
      if (ended) {
        this.endStreamsOf(ended);
        return;
      }
      event = parseStored(parsed);
    } catch {
      event = undefined;
    }
    if (!event) {
      this.log.warn('a live update that is not an event was ignored');
      return;
    }
    this.lastHeardId = Math.max(this.lastHeardId, event.id);
    this.dispatch(event).catch((error: unknown) =>
      this.log.error({ err: error }, 'live update not delivered'),
    );
  }

  private async catchUp(): Promise<void> {
    try {
      const rows = await this.db
        .select()
        .from(liveEvents)
        .where(and(gt(liveEvents.id, this.lastHeardId), gt(liveEvents.createdAt, WINDOW_START)))
        .orderBy(asc(liveEvents.id))
        .limit(LIVE_REPLAY_LIMIT);
      for (const row of rows) {
        const event = parseStored(row);
        if (!event) continue;
        this.lastHeardId = Math.max(this.lastHeardId, event.id);
        await this.dispatch(event);
      }
    } catch (error) {
      this.log.error({ err: error }, 'live updates not caught up after a reconnect');
    }
  }

  /**
   * A user's sessions ended (suspended, a password reset or change; announced by `endSessionsOf` on
   * every instance): their streams end now, not at the next heartbeat, all but the one of the session
   * that was kept (docs/rules/live-updates.md, Live updates).
   */
  private endStreamsOf(ended: SessionsEnded): void {
    for (const subscriber of [...this.subscribers]) {
      if (subscriber.userId !== ended.userId) continue;
      if (ended.keepSessionId !== null && subscriber.owner?.sessionId === ended.keepSessionId) continue;
      this.subscribers.delete(subscriber);
      subscriber.owner?.end();
    }
  }

  /** Hands the event to every stream whose user may receive it, and to nobody else. */
  private async dispatch(event: StoredLiveEvent): Promise<void> {
    const named = new Set(event.audience);
    const candidates = [...this.subscribers].filter(
      (subscriber) => named.has(subscriber.userId) || event.forDrivers,
    );
    if (candidates.length === 0) return;
    // Whether someone may take an offer is read now, not when they connected: a driver approved
    // or revoked since then is told accordingly.
    const unnamed = [...new Set(candidates.map((c) => c.userId).filter((id) => !named.has(id)))];
    const current = new Map<string, LiveUser>();
    if (unnamed.length > 0) {
      const rows = await this.db.select().from(users).where(inArray(users.id, unnamed));
      for (const row of rows) current.set(row.id, row);
    }
    for (const subscriber of candidates) {
      const user = named.has(subscriber.userId)
        ? { id: subscriber.userId, roles: [], ...NO_DOCUMENTS }
        : current.get(subscriber.userId);
      if (user && canReceiveLiveEvent(user, event)) subscriber.deliver(event);
    }
  }

  private async prune(): Promise<void> {
    try {
      // An event not yet turned into mail and push stays a day, so a dispatcher that was down
      // catches up (docs/decisions/0019-reaching-people.md).
      await this.db
        .delete(liveEvents)
        .where(
          or(
            and(lt(liveEvents.createdAt, WINDOW_START), isNotNull(liveEvents.dispatchedAt)),
            lt(liveEvents.createdAt, sql`now() - interval '1 day'`),
          ),
        );
    } catch (error) {
      this.log.warn({ err: error }, 'old live updates not removed');
    }
  }
}
