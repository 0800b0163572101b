import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import { builtOnce } from '../db/built-once';
import type { Db } from '../db/client';
import { addresses, sessions, users } from '../db/schema';
import type { LatLng } from '../../domain/geo';
import type { Role } from '../../domain/roles';
import type { KeptPrivateReads } from './kept-private-reads';
import { announceSessionsEnded } from './live-events';

/**
 * Sessions live in the `sessions` table (docs/rules/accounts.md, Sessions and sign-in); the cookie
 * holds a signed random id.
 */
export const SESSION_COOKIE = 'sid';
const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Extend a session's life at most once an hour, not on every request. */
const TOUCH_AFTER_MS = 60 * 60 * 1000;

export type UserRow = typeof users.$inferSelect;

/** About a megabyte at most; emptied when full (the next request checks its signature again). */
const VERIFIED_COOKIES_MAX = 10_000;

/**
 * The session id a signed session cookie holds, or null when its signature does not verify. A
 * cookie already verified by this app is not checked again: every signed-in request sends the same
 * one (docs/decisions/0029-signed-in-reads-kept.md, Cookies verified once). Only verified cookies are
 * remembered (in `verified`, one map an app: its secret), so a forged one is always checked.
 * Whether the session still exists, and whose it is, is read as before.
 */
function sessionIdOfCookie(
  raw: string,
  unsign: (raw: string) => { valid: boolean; value: string | null },
  verified: Map<string, string>,
): string | null {
  const known = verified.get(raw);
  if (known !== undefined) return known;
  const unsigned = unsign(raw);
  if (!unsigned.valid || !unsigned.value) return null;
  if (verified.size >= VERIFIED_COOKIES_MAX) verified.clear();
  verified.set(raw, unsigned.value);
  return unsigned.value;
}

export interface Actor extends UserRow {
  role: Role;
  roles: Role[];
  /**
   * Where the user's primary address is, when it has a place: read with the session, so the
   * distance a signed-in page shows costs no query of its own
   * (docs/rules/catalog-and-orders.md, Catalog and distance).
   */
  primaryLocation: LatLng | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    sessionId: string | null;
    /** The signed-in user, loaded once per request on first use; null for visitors. */
    getActor(): Promise<Actor | null>;
  }
}

interface SessionOptions {
  db: Db;
  secure: boolean;
  /** Sessions' users kept in memory (kept-private-reads.ts). */
  kept: KeptPrivateReads;
}

export function registerSessions(app: FastifyInstance, options: SessionOptions): void {
  const { db, kept } = options;
  const verifiedCookies = new Map<string, string>();
  app.decorateRequest('sessionId', null);
  app.decorateRequest('getActor', async () => null);

  // A plain callback rather than an async function: it runs on every request and awaits nothing.
  app.addHook('onRequest', (request, _reply, done) => {
    const raw = request.cookies[SESSION_COOKIE];
    const sid = raw ? sessionIdOfCookie(raw, (text) => request.unsignCookie(text), verifiedCookies) : null;
    request.sessionId = sid;
    let loaded: Promise<Actor | null> | undefined;
    request.getActor = () => {
      loaded ??= sid ? loadActor(db, sid, kept, request) : Promise.resolve(null);
      return loaded;
    };
    done();
  });

  app.addHook('onReady', () => kept.start());
  app.addHook('onClose', () => kept.stop());
  // Besides the database's notices, which name the table and drop what it can change: a
  // sign-in or sign-out keeps no user past its answer, and a write keeps no list of orders
  // (docs/decisions/0029-signed-in-reads-kept.md, What is kept).
  app.addHook('onSend', (request, reply, _payload, done) => {
    if (reply.hasHeader('set-cookie')) kept.clear();
    else if (request.method !== 'GET' && request.method !== 'HEAD') kept.clearScope('lists');
    done();
  });

  const sweep = setInterval(() => {
    db.delete(sessions)
      .where(lt(sessions.expire, new Date()))
      .catch((error: unknown) => app.log.warn({ err: error }, 'could not sweep expired sessions'));
  }, TOUCH_AFTER_MS);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));

  app.decorate('sessionCookieOptions', {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: options.secure,
    path: '/',
    signed: true,
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    sessionCookieOptions: {
      httpOnly: boolean;
      sameSite: 'lax';
      secure: boolean;
      path: string;
      signed: boolean;
    };
  }
}

/**
 * The session's user, built once: every signed-in request asks it, and drizzle's building of a
 * statement with every user column cost more than running it
 * (docs/decisions/0028-checkout-throughput.md, Statements built once).
 */
const findActor = builtOnce((db) =>
  db
    .select({
      user: users,
      expire: sessions.expire,
      latitude: addresses.latitude,
      longitude: addresses.longitude,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    // At most one primary address a user (addresses_one_primary_per_user).
    .leftJoin(addresses, and(eq(addresses.userId, users.id), eq(addresses.isPrimary, true)))
    .where(
      and(
        eq(sessions.sid, sql.placeholder('sid')),
        gt(sessions.expire, sql.placeholder('now')),
        // A suspended user's sessions are ended; one that a race left behind opens nothing.
        isNull(users.suspendedAt),
      ),
    )
    .limit(1)
    .prepare(''),
);

/** Whether a session ending at `expire` is due to be extended. */
const isDueForTouch = (expire: number, now: number) => expire - now < SESSION_TTL_MS - TOUCH_AFTER_MS;

const keptKeyOf = (sid: string) => `session ${sid}`;

/**
 * The user of session `sid` as kept, unless the session is due to be extended: whether it may
 * answer a request is the caller's to know (`KeptPrivateReads.freshFor`).
 */
export function keptSessionUser(kept: KeptPrivateReads, sid: string): Actor | undefined {
  const now = Date.now();
  const hit = kept.get<Actor>('sessions', keptKeyOf(sid), now);
  return hit && !isDueForTouch(hit.expire, now) ? hit.value : undefined;
}

async function loadActor(
  db: Db,
  sid: string,
  kept: KeptPrivateReads,
  request: FastifyRequest,
): Promise<Actor | null> {
  const key = keptKeyOf(sid);
  const hit = await kept.getFresh<Actor>('sessions', key, request);
  if (hit && !isDueForTouch(hit.expire, Date.now())) return hit.value;
  const read = async () => {
    // A date as drizzle writes one: its ISO form.
    const rows = await findActor(db).execute({ sid, now: new Date().toISOString() });
    const row = rows[0];
    if (!row) return undefined;
    let expire = row.expire.getTime();
    if (isDueForTouch(expire, Date.now())) {
      expire = Date.now() + SESSION_TTL_MS;
      await db
        .update(sessions)
        .set({ expire: new Date(expire) })
        .where(eq(sessions.sid, sid));
    }
    // A kept user is shared by the requests of its session: nothing may change it.
    const actor = row.user as Actor;
    actor.primaryLocation =
      row.latitude !== null && row.longitude !== null
        ? Object.freeze({ latitude: Number(row.latitude), longitude: Number(row.longitude) })
        : null;
    Object.freeze(actor.roles);
    Object.freeze(actor.withheldRoles);
    return { value: Object.freeze(actor), expire };
  };
  const found = await kept.load('sessions', key, read);
  return found?.value ?? null;
}

/**
 * Signs a user in: a new session id every time (rotation at sign-in;
 * docs/rules/accounts.md, Sessions and sign-in).
 */
export async function startSession(
  app: FastifyInstance,
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
): Promise<void> {
  if (request.sessionId) await db.delete(sessions).where(eq(sessions.sid, request.sessionId));
  const sid = crypto.randomBytes(32).toString('base64url');
  const expire = new Date(Date.now() + SESSION_TTL_MS);
  await db
    .insert(sessions)
    .values({ sid, sess: { userId, createdAt: new Date().toISOString() }, userId: userId, expire });
  request.sessionId = sid;
  void reply.setCookie(SESSION_COOKIE, sid, { ...app.sessionCookieOptions, expires: expire });
}

/**
 * Ends every session of a user at once, inside the caller's transaction: an admin suspended them
 * (docs/rules/accounts.md, Moderation). Their next request is a visitor's, 401 where sign-in is needed.
 */
export async function endSessionsOf(tx: Db, userId: string, exceptSessionId?: string | null): Promise<void> {
  // A change of password keeps the session that made it (docs/decisions/0019-reaching-people.md, Accounts).
  await tx
    .delete(sessions)
    .where(
      exceptSessionId
        ? and(eq(sessions.userId, userId), ne(sessions.sid, exceptSessionId))
        : eq(sessions.userId, userId),
    );
  // Their open event streams end too, on every instance (docs/rules/live-updates.md, Live updates).
  await announceSessionsEnded(tx, { userId, keepSessionId: exceptSessionId ?? null });
}

export async function endSession(
  app: FastifyInstance,
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  if (request.sessionId) await db.delete(sessions).where(eq(sessions.sid, request.sessionId));
  request.sessionId = null;
  void reply.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: app.sessionCookieOptions.secure,
  });
}
