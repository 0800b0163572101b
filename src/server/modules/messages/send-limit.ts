import { tooManyRequests, waitText, type RateLimiter } from '../../platform/rate-limit';

/**
 * Product and order messages share one limit per sender (docs/product-rules.md, Reviews and
 * messages): 429 with how long to wait.
 */
export function countMessageSent(limiter: RateLimiter, senderId: string): void {
  const wait = limiter.hit(senderId);
  if (wait > 0)
    throw tooManyRequests(
      `You have sent many messages in a short time. Please try again in ${waitText(wait)}.`,
    );
}
