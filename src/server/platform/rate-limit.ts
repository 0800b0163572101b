import { AppError } from './errors';

/**
 * A fixed-window counter per key, in process memory (docs/product-rules.md, Bad input and failure:
 * 429 on sign-in, sign-up, contact form and message sending). Several app instances each keep their
 * own counts, which bounds abuse per instance; see docs/decisions/0003-rate-limits.md.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one attempt; returns the seconds to wait when the limit is exceeded, else 0. */
  hit(key: string): number {
    const now = this.now();
    if (this.windows.size > 10_000) this.prune(now);
    const current = this.windows.get(key);
    if (!current || current.resetAt <= now) {
      this.windows.set(key, { count: 1, resetAt: now + this.windowMs });
      return 0;
    }
    current.count += 1;
    return current.count > this.max ? Math.ceil((current.resetAt - now) / 1000) : 0;
  }

  /** Seconds to wait if the key is already over its limit, without counting an attempt. */
  check(key: string): number {
    const current = this.windows.get(key);
    const now = this.now();
    if (!current || current.resetAt <= now || current.count < this.max) return 0;
    return Math.ceil((current.resetAt - now) / 1000);
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  private prune(now: number): void {
    for (const [key, value] of this.windows) if (value.resetAt <= now) this.windows.delete(key);
  }
}

/**
 * Failed attempts that slow the next ones down instead of refusing them (docs/decisions/0003-rate-limits.md,
 * Sign-in failures): a key's first `free` failures in the window cost nothing, then each adds a
 * wait that doubles from `baseMs` up to `capMs`. The right password still gets in, after the wait,
 * so nobody can keep an account's owner out by failing on purpose.
 */
export class FailureSlowdown {
  private readonly failures = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly settings: { free: number; baseMs: number; capMs: number; windowMs: number },
    private readonly now: () => number = Date.now,
  ) {}

  /** How long the next attempt for this key waits before it is answered, in milliseconds. */
  delayMs(key: string): number {
    const current = this.failures.get(key);
    if (!current || current.resetAt <= this.now()) return 0;
    const over = current.count - this.settings.free;
    if (over < 0) return 0;
    return Math.min(this.settings.capMs, this.settings.baseMs * 2 ** Math.min(over, 30));
  }

  fail(key: string): void {
    const now = this.now();
    if (this.failures.size > 10_000) {
      for (const [stale, value] of this.failures) if (value.resetAt <= now) this.failures.delete(stale);
    }
    const current = this.failures.get(key);
    if (!current || current.resetAt <= now) {
      this.failures.set(key, { count: 1, resetAt: now + this.settings.windowMs });
      return;
    }
    current.count += 1;
  }

  reset(key: string): void {
    this.failures.delete(key);
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
  /** Product and order messages together, per sender (docs/product-rules.md, Reviews and messages). */
  messagesPerUser: RateLimiter;
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
}

export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  signInPerIpPerMinute: 60,
  signInFreeFailuresPerAccount: 10,
  signInFreeFailuresPerAccountAndAddress: 3,
  signUpPerIpPerHour: 30,
  accountMailPerIpPerHour: 30,
  contactPerIpPer10Minutes: 5,
  messagesPerUserPerMinute: 20,
};

export function createRateLimits(settings: RateLimitSettings): RateLimits {
  return {
    signInPerIp: new RateLimiter(settings.signInPerIpPerMinute, 60_000),
    signInFailuresPerAccount: new FailureSlowdown({
      free: settings.signInFreeFailuresPerAccount,
      baseMs: 500,
      capMs: 8_000,
      windowMs: 15 * 60_000,
    }),
    signInFailuresPerAccountAndAddress: new FailureSlowdown({
      free: settings.signInFreeFailuresPerAccountAndAddress,
      baseMs: 1_000,
      capMs: 60_000,
      windowMs: 15 * 60_000,
    }),
    pause: settings.pause ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    signUpPerIp: new RateLimiter(settings.signUpPerIpPerHour, 60 * 60_000),
    accountMailPerIp: new RateLimiter(settings.accountMailPerIpPerHour, 60 * 60_000),
    contactPerIp: new RateLimiter(settings.contactPerIpPer10Minutes, 10 * 60_000),
    messagesPerUser: new RateLimiter(settings.messagesPerUserPerMinute, 60_000),
  };
}
