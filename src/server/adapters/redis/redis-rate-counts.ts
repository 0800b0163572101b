import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import type { RateCounts, RateWindow } from '../../platform/rate-limit';

/**
 * One hit, in one step on the Redis server so that instances counting at once never lose a hit:
 * the window is kept as the app's clock sees it (`e`, when it ends, and `c`, the hits in it), the
 * same rule as the database's counts (docs/decisions/0003-rate-limits.md, Counted in Redis); the
 * first hit after a window ends starts the next. Redis's own expiry only clears a key a second after
 * its window, so tests may move the app's clock instead of waiting.
 */
const HIT_SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local ends = tonumber(redis.call('HGET', KEYS[1], 'e'))
local count
if ends == nil or ends <= now then
  ends = now + window
  count = 1
  redis.call('HSET', KEYS[1], 'c', 1, 'e', ends)
else
  count = redis.call('HINCRBY', KEYS[1], 'c', 1)
end
redis.call('PEXPIRE', KEYS[1], ends - now + 1000)
return {count, ends}
`;

/** What a request that needs the counts is told while Redis does not answer. */
export const REDIS_UNAVAILABLE = 'This cannot be done right now. Please try again in a moment.';

function asWindow(count: unknown, ends: unknown, now: number): RateWindow | undefined {
  const c = Number(count);
  const e = Number(ends);
  if (!Number.isFinite(c) || !Number.isFinite(e) || e <= now) return undefined;
  return { count: c, msLeft: e - now };
}

/**
 * The limiters' counts in Redis (REDIS_URL): every instance on the same Redis shares one budget per
 * key, and the database does no write for them. Commands are never queued while the connection is
 * down: a request that needs a count is answered 503 at once instead of waiting, and
 * `/api/ready` reports Redis unreachable, while the client keeps reconnecting.
 */
export class RedisRateCounts implements RateCounts {
  constructor(
    private readonly redis: Redis,
    private readonly now: () => number,
    /** Keys are this followed by the limiter's key; tests give each run its own. */
    private readonly prefix = 'rate:',
  ) {}

  async add(_db: Db, key: string, windowMs: number): Promise<RateWindow> {
    const now = this.now();
    const reply = await this.call(() => this.redis.eval(HIT_SCRIPT, 1, this.prefix + key, now, windowMs));
    const [count, ends] = Array.isArray(reply) ? reply : [];
    // A hit just counted has a window that ends after now.
    const window = asWindow(count, ends, now);
    if (!window) throw new Error(`the rate count script answered ${JSON.stringify(reply)}`);
    return window;
  }

  async read(_db: Db, key: string): Promise<RateWindow | undefined> {
    const now = this.now();
    const [count, ends] = await this.call(() => this.redis.hmget(this.prefix + key, 'c', 'e'));
    return asWindow(count, ends, now);
  }

  async clear(_db: Db, key: string): Promise<void> {
    await this.call(() => this.redis.del(this.prefix + key));
  }

  /** Answers when Redis does, else throws (for /api/ready). */
  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  private async call<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      // The log keeps Redis's own error (5xx are logged with their cause); the client sees the sentence.
      const unavailable = new AppError('unavailable', REDIS_UNAVAILABLE);
      unavailable.cause = error;
      throw unavailable;
    }
  }
}

/**
 * Connects to REDIS_URL before the app takes requests: a server told to count in Redis does not
 * start without it (the message says where it looked, never the password).
 */
export async function connectRedisRateCounts(
  url: string,
  now: () => number,
  log: Pick<FastifyBaseLogger, 'warn'>,
  prefix?: string,
): Promise<RedisRateCounts> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 5_000,
  });
  // Each failed reconnection is an error event; without a listener ioredis prints them itself.
  let lastLogged = 0;
  redis.on('error', (error: Error) => {
    if (Date.now() - lastLogged < 10_000) return;
    lastLogged = Date.now();
    log.warn({ err: error }, 'redis: connection failed; rate limits answer 503 until it is back');
  });
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    const where = new URL(url);
    throw new Error(
      `REDIS_URL is set but Redis at ${where.hostname}:${where.port || '6379'} cannot be reached`,
      {
        cause: error,
      },
    );
  }
  return new RedisRateCounts(redis, now, prefix);
}
