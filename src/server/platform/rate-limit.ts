import crypto from 'node:crypto';
import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateLimitHits } from '../db/schema';
import { AppError } from './errors';
import { TWO_FACTOR_FAILURE_WINDOW_MINUTES, TWO_FACTOR_FAILURES_PER_WINDOW } from '../../domain/two-factor';

/** Each instance deletes a batch of expired rows after this many counted hits of its own. */
export const PRUNE_EVERY_HITS = 500;
/** The most expired rows one clean-up deletes, so it never holds a request for long. */
export const PRUNE_BATCH = 1_000;

/** A key's count in its current window, and how long that window has left. */
export interface RateWindow {
  count: number;
  msLeft: number;
}

/**
 * Where the limiters count: the database by default, Redis when REDIS_URL is set
 * (docs/decisions/0003-rate-limits.md). Either way every instance draws on one budget per key. A
 * window starts at a key's first hit and lasts `windowMs`, on the app's clock. `db` is the handle
 * of the request; a store that keeps its counts elsewhere ignores it.
 */
export interface RateCounts {
  /** Counts one hit and answers the key's count in its window, this hit included. */
  add(db: Db, key: string, windowMs: number): Promise<RateWindow>;
  /** The key's current window, or undefined when it has none or it has ended. */
  read(db: Db, key: string): Promise<RateWindow | undefined>;
  clear(db: Db, key: string): Promise<void>;
  /**
   * Throws when a store outside the database does not answer (`/api/ready` asks it); the
   * database's counts have none, the database being asked anyway.
   */
  ping?(): Promise<void>;
}

/**
 * The counts of an instance's limiters, kept in `rate_limit_hits` so that every instance on the
 * database draws on one budget (docs/decisions/0003-rate-limits.md, Counted in the database). A
 * window starts at a key's first hit and lasts `windowMs`; the first hit after it ends starts the
 * next one. Time is the app's clock, so tests move it instead of sleeping.
 */
export class RateLimitCounts implements RateCounts {
  private hitsSincePrune = 0;

  constructor(
    readonly now: () => number,
    private readonly prune: { everyHits: number; batch: number } = {
      everyHits: PRUNE_EVERY_HITS,
      batch: PRUNE_BATCH,
    },
  ) {}

  /**
   * Counts one hit in one statement (an upsert on the key, so two instances counting at once both
   * land and see their own total), and now and then deletes a batch of expired rows.
   */
  async add(db: Db, key: string, windowMs: number): Promise<RateWindow> {
    const now = this.now();
    // Every SET expression reads the row as it was: a window that has ended starts again here.
    const ended = sql`${rateLimitHits.expiresAt} <= excluded.window_start`;
    const [row] = await db
      .insert(rateLimitHits)
      .values({ key, windowStart: new Date(now), count: 1, expiresAt: new Date(now + windowMs) })
      .onConflictDoUpdate({
        target: rateLimitHits.key,
        set: {
          windowStart: sql`case when ${ended} then excluded.window_start else ${rateLimitHits.windowStart} end`,
          count: sql`case when ${ended} then 1 else ${rateLimitHits.count} + 1 end`,
          expiresAt: sql`case when ${ended} then excluded.expires_at else ${rateLimitHits.expiresAt} end`,
        },
      })
      .returning({ count: rateLimitHits.count, expiresAt: rateLimitHits.expiresAt });
    if (!row) throw new Error('rate limit upsert returned no row');
    this.hitsSincePrune += 1;
    if (this.hitsSincePrune >= this.prune.everyHits) {
      this.hitsSincePrune = 0;
      await this.deleteExpired(db, now);
    }
    return { count: row.count, msLeft: row.expiresAt.getTime() - now };
  }

  /** The key's current window, or undefined when it has none or it has ended. */
  async read(db: Db, key: string): Promise<RateWindow | undefined> {
    const now = this.now();
    const [row] = await db
      .select({ count: rateLimitHits.count, expiresAt: rateLimitHits.expiresAt })
      .from(rateLimitHits)
      .where(and(eq(rateLimitHits.key, key), gt(rateLimitHits.expiresAt, new Date(now))));
    return row ? { count: row.count, msLeft: row.expiresAt.getTime() - now } : undefined;
  }

  async clear(db: Db, key: string): Promise<void> {
    await db.delete(rateLimitHits).where(eq(rateLimitHits.key, key));
  }

  /**
   * Deletes up to a batch of rows whose window has ended. The outer condition is checked again on a
   * row another hit has just started afresh, which is then kept.
   */
  async deleteExpired(db: Db, now: number = this.now()): Promise<number> {
    const at = new Date(now);
    const expired = db
      .select({ key: rateLimitHits.key })
      .from(rateLimitHits)
      .where(lte(rateLimitHits.expiresAt, at))
      .limit(this.prune.batch);
    const deleted = await db
      .delete(rateLimitHits)
      .where(and(lte(rateLimitHits.expiresAt, at), inArray(rateLimitHits.key, expired)))
      .returning({ key: rateLimitHits.key });
    return deleted.length;
  }
}

/**
 * A key's row name: the limiter's name and a digest of the address, email or user id it counts, so
 * the table holds no one's address or email and every key has the same short length.
 */
function rowKey(limiter: string, key: string): string {
  return `${limiter}:${crypto.createHash('sha256').update(key).digest('base64url')}`;
}

/**
 * A fixed-window counter per key (docs/rules/running.md, Bad input and failure: 429 on sign-in,
 * sign-up, contact form and message sending), counted in the database so that every app instance
 * shares one budget per key: a second instance behind the load balancer does not double anyone's
 * allowance (docs/decisions/0003-rate-limits.md, Counted in the database).
 */
export class RateLimiter {
  constructor(
    /** Names the limiter's rows, e.g. `sign-in-ip`: keys of different limiters never mix. */
    private readonly name: string,
    private readonly max: number,
    private readonly windowMs: number,
    private readonly counts: RateCounts,
  ) {}

  /** Counts one attempt; answers the seconds to wait when the limit is exceeded, else 0. */
  async hit(db: Db, key: string): Promise<number> {
    const window = await this.counts.add(db, rowKey(this.name, key), this.windowMs);
    return window.count > this.max ? Math.ceil(window.msLeft / 1000) : 0;
  }

  /** Seconds to wait if the key is already at its limit, without counting an attempt. */
  async check(db: Db, key: string): Promise<number> {
    const window = await this.counts.read(db, rowKey(this.name, key));
    if (!window || window.count < this.max) return 0;
    return Math.ceil(window.msLeft / 1000);
  }

  async reset(db: Db, key: string): Promise<void> {
    await this.counts.clear(db, rowKey(this.name, key));
  }
}

/**
 * Failed attempts that slow the next ones down instead of refusing them (docs/decisions/0003-rate-limits.md,
 * Sign-in failures): a key's first `free` failures in the window cost nothing, then each adds a
 * wait that doubles from `baseMs` up to `capMs`. The right password still gets in, after the wait,
 * so nobody can keep an account's owner out by failing on purpose. Counted in the database like
 * {@link RateLimiter}, so a failure on one instance slows the next try on any other.
 */
export class FailureSlowdown {
  constructor(
    private readonly name: string,
    private readonly settings: { free: number; baseMs: number; capMs: number; windowMs: number },
    private readonly counts: RateCounts,
  ) {}

  /** How long the next attempt for this key waits before it is answered, in milliseconds. */
  async delayMs(db: Db, key: string): Promise<number> {
    const window = await this.counts.read(db, rowKey(this.name, key));
    if (!window) return 0;
    const over = window.count - this.settings.free;
    if (over < 0) return 0;
    return Math.min(this.settings.capMs, this.settings.baseMs * 2 ** Math.min(over, 30));
  }

  async fail(db: Db, key: string): Promise<void> {
    await this.counts.add(db, rowKey(this.name, key), this.settings.windowMs);
  }

  async reset(db: Db, key: string): Promise<void> {
    await this.counts.clear(db, rowKey(this.name, key));
  }
}

export function waitText(seconds: number): string {
  if (seconds <= 60) return 'a minute';
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}

export function tooManyRequests(message: string): AppError {
  return new AppError('rate_limited', message);
}

export interface RateLimits {
  signInPerIp: RateLimiter;
  /** Failed sign-ins for an account from anywhere: a short wait, so its owner always gets in. */
  signInFailuresPerAccount: FailureSlowdown;
  /** Failed sign-ins for an account from one address: a wait that grows to a minute. */
  signInFailuresPerAccountAndAddress: FailureSlowdown;
  /** Waits before a slowed sign-in is answered; tests record it instead of waiting. */
  pause: (ms: number) => Promise<void>;
  signUpPerIp: RateLimiter;
  /** Password reset and verification mail asked for, per address (docs/decisions/0019-reaching-people.md, Accounts). */
  accountMailPerIp: RateLimiter;
  contactPerIp: RateLimiter;
  /** Product and order messages together, per sender (docs/rules/selling.md, Reviews and messages). */
  messagesPerUser: RateLimiter;
  /**
   * Refused two-factor codes per account, at sign-in and on the profile: a code has a million
   * values, so tries are refused, not slowed (docs/decisions/0024-two-factor-sign-in.md).
   */
  twoFactorFailuresPerUser: RateLimiter;
}

export interface RateLimitSettings {
  signInPerIpPerMinute: number;
  /** Failures for one account in 15 minutes before each further try waits. */
  signInFreeFailuresPerAccount: number;
  /** Failures for one account from one address in 15 minutes before each further try waits. */
  signInFreeFailuresPerAccountAndAddress: number;
  pause?: (ms: number) => Promise<void>;
  signUpPerIpPerHour: number;
  accountMailPerIpPerHour: number;
  contactPerIpPer10Minutes: number;
  messagesPerUserPerMinute: number;
  twoFactorFailuresPerUserPer15Minutes: number;
}

export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  signInPerIpPerMinute: 60,
  signInFreeFailuresPerAccount: 10,
  signInFreeFailuresPerAccountAndAddress: 3,
  signUpPerIpPerHour: 30,
  accountMailPerIpPerHour: 30,
  contactPerIpPer10Minutes: 5,
  messagesPerUserPerMinute: 20,
  twoFactorFailuresPerUserPer15Minutes: TWO_FACTOR_FAILURES_PER_WINDOW,
};

/**
 * The app's limiters, each naming its rows, on one set of counts (the database's unless another
 * store is given): `now` is the app's clock in milliseconds.
 */
export function createRateLimits(
  settings: RateLimitSettings,
  now: () => number,
  counts: RateCounts = new RateLimitCounts(now),
): RateLimits {
  return {
    signInPerIp: new RateLimiter('sign-in-ip', settings.signInPerIpPerMinute, 60_000, counts),
    signInFailuresPerAccount: new FailureSlowdown(
      'sign-in-failures-account',
      { free: settings.signInFreeFailuresPerAccount, baseMs: 500, capMs: 8_000, windowMs: 15 * 60_000 },
      counts,
    ),
    signInFailuresPerAccountAndAddress: new FailureSlowdown(
      'sign-in-failures-account-ip',
      {
        free: settings.signInFreeFailuresPerAccountAndAddress,
        baseMs: 1_000,
        capMs: 60_000,
        windowMs: 15 * 60_000,
      },
      counts,
    ),
    pause: settings.pause ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    signUpPerIp: new RateLimiter('sign-up-ip', settings.signUpPerIpPerHour, 60 * 60_000, counts),
    accountMailPerIp: new RateLimiter(
      'account-mail-ip',
      settings.accountMailPerIpPerHour,
      60 * 60_000,
      counts,
    ),
    contactPerIp: new RateLimiter('contact-ip', settings.contactPerIpPer10Minutes, 10 * 60_000, counts),
    messagesPerUser: new RateLimiter('messages-user', settings.messagesPerUserPerMinute, 60_000, counts),
    twoFactorFailuresPerUser: new RateLimiter(
      'two-factor-failures-user',
      settings.twoFactorFailuresPerUserPer15Minutes,
      TWO_FACTOR_FAILURE_WINDOW_MINUTES * 60_000,
      counts,
    ),
  };
}
