import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import { builtOnce } from '../db/built-once';
import type { Db } from '../db/client';
import { sessions, users } from '../db/schema';
import type { Role } from '../../domain/roles';

/**
 * Sessions live in the `sessions` table (docs/product-rules.md, Sessions and sign-in); the cookie
 * holds a signed random id.
 */
export const SESSION_COOKIE = 'sid';
const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Extend a session's life at most once an hour, not on every request. */
const TOUCH_AFTER_MS = 60 * 60 * 1000;

export type UserRow = typeof users.$inferSelect;

export interface Actor extends UserRow {
  role: Role;
  roles: Role[];
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
}

export function registerSessions(app: FastifyInstance, options: SessionOptions): void {
  const { db } = options;
  app.decorateRequest('sessionId', null);
  app.decorateRequest('getActor', async () => null);

  // A plain callback rather than an async function: it runs on every request and awaits nothing.
  app.addHook('onRequest', (request, _reply, done) => {
    const raw = request.cookies[SESSION_COOKIE];
    let sid: string | null = null;
    if (raw) {
      const unsigned = request.unsignCookie(raw);
      if (unsigned.valid && unsigned.value) sid = unsigned.value;
    }
    request.sessionId = sid;
    let loaded: Promise<Actor | null> | undefined;
    request.getActor = () => {
      loaded ??= sid ? loadActor(db, sid) : Promise.resolve(null);
      return loaded;
    };
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
 * (docs/decisions/0015-catalog-and-checkout-throughput.md, Checkout).
 */
const findActor = builtOnce((db) =>
  db
    .select({ user: users, expire: sessions.expire })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
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

async function loadActor(db: Db, sid: string): Promise<Actor | null> {
  // A date as drizzle writes one: its ISO form.
  const rows = await findActor(db).execute({ sid, now: new Date().toISOString() });
  const row = rows[0];
  if (!row) return null;
  if (row.expire.getTime() - Date.now() < SESSION_TTL_MS - TOUCH_AFTER_MS) {
    await db
      .update(sessions)
      .set({ expire: new Date(Date.now() + SESSION_TTL_MS) })
      .where(eq(sessions.sid, sid));
  }
  return row.user as Actor;
}

/**
 * Signs a user in: a new session id every time (rotation at sign-in;
 * docs/product-rules.md, Sessions and sign-in).
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
 * (docs/product-rules.md, Moderation). Their next request is a visitor's, 401 where sign-in is needed.
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
