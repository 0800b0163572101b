import type { Db } from '../../db/client';
import { tooManyRequests, waitText, type RateLimiter } from '../../platform/rate-limit';

/**
 * Product and order messages share one limit per sender (docs/rules/selling.md, Reviews and
 * messages): 429 with how long to wait.
 */
export async function countMessageSent(db: Db, limiter: RateLimiter, senderId: string): Promise<void> {
  const wait = await limiter.hit(db, senderId);
  if (wait > 0)
    throw tooManyRequests(
      `You have sent many messages in a short time. Please try again in ${waitText(wait)}.`,
    );
}
