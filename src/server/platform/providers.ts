import type { Config, OidcConfig } from '../config';
import type { Database } from '../db/client';
import type { IdentityProvider } from '../adapters/identity/identity-provider';
import type { PaymentProvider } from '../adapters/payments/payment-provider';
import { TestPaymentProvider } from '../adapters/payments/test-payment-provider';

/**
 * Stripe when its keys are set, else the built-in test provider with its ledger in the database
 * (docs/rules/running.md, Running modes and adapters). Stripe's SDK is loaded only then
 * (docs/decisions/0016-embedded-database-process.md, Memory).
 */
export async function createPaymentProvider(config: Config, db: Database['db']): Promise<PaymentProvider> {
  if (!config.stripe) return new TestPaymentProvider(db);
  const { StripePaymentProvider } = await import('../adapters/payments/stripe-payment-provider');
  return new StripePaymentProvider(config.stripe);
}

/** Sign-in through OpenID Connect when configured; openid-client is loaded only then. */
export async function createOidcIdentityProvider(settings: OidcConfig): Promise<IdentityProvider> {
  const { OidcIdentityProvider } = await import('../adapters/identity/oidc-identity-provider');
  return new OidcIdentityProvider(settings);
}
