import Stripe from 'stripe';
import type { StripeConfig } from '../../config';

/**
 * The one Stripe client setup of the payment and payout adapters (docs/decisions/0013-money-movement.md):
 * two retries, a 20 s timeout, no telemetry, and `apiBase` when a test points Stripe elsewhere.
 */
export function createStripeClient(config: StripeConfig): Stripe {
  const base = config.apiBase ? new URL(config.apiBase) : undefined;
  return new Stripe(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

/** Network failures and Stripe's own 5xx/429: worth trying again later. */
export function isStripeUnavailable(error: unknown): boolean {
  return (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError
  );
}
