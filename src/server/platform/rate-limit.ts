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
  signInFailuresPerEmail: RateLimiter;
  signUpPerIp: RateLimiter;
  contactPerIp: RateLimiter;
  /** Product and order messages together, per sender (docs/product-rules.md, Reviews and messages). */
  messagesPerUser: RateLimiter;
}

export interface RateLimitSettings {
  signInPerIpPerMinute: number;
  signInFailuresPerEmailPer15Minutes: number;
  signUpPerIpPerHour: number;
  contactPerIpPer10Minutes: number;
  messagesPerUserPerMinute: number;
}

export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  signInPerIpPerMinute: 60,
  signInFailuresPerEmailPer15Minutes: 10,
  signUpPerIpPerHour: 30,
  contactPerIpPer10Minutes: 5,
  messagesPerUserPerMinute: 20,
};

export function createRateLimits(settings: RateLimitSettings): RateLimits {
  return {
    signInPerIp: new RateLimiter(settings.signInPerIpPerMinute, 60_000),
    signInFailuresPerEmail: new RateLimiter(settings.signInFailuresPerEmailPer15Minutes, 15 * 60_000),
    signUpPerIp: new RateLimiter(settings.signUpPerIpPerHour, 60 * 60_000),
    contactPerIp: new RateLimiter(settings.contactPerIpPer10Minutes, 10 * 60_000),
    messagesPerUser: new RateLimiter(settings.messagesPerUserPerMinute, 60_000),
  };
}
