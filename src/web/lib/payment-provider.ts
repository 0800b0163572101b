import type { PaymentProviderName } from '@domain/checkout';

/** The meta tag of index.html the server writes the provider's name into (server/platform/index-html.ts). */
const PAYMENT_PROVIDER_META = 'payment-provider';

let cachedProvider: PaymentProviderName | undefined;

/** Anything but Stripe is taken as the test provider, so the page never claims Stripe wrongly. */
function providerNamed(name: string | null | undefined): PaymentProviderName {
  return name === 'stripe' ? 'stripe' : 'test';
}

/** On the server, which has no index.html to read: the provider it writes there. */
export function setPaymentProvider(name: string): void {
  cachedProvider = providerNamed(name);
}

/**
 * Which provider takes the payments (docs/rules/running.md, Running modes and adapters): the server
 * writes it into index.html; without it (a test page, the dev server) the built-in test provider.
 */
export function paymentProvider(): PaymentProviderName {
  if (cachedProvider) return cachedProvider;
  const content =
    typeof document === 'undefined'
      ? null
      : document.querySelector(`meta[name="${PAYMENT_PROVIDER_META}"]`)?.getAttribute('content');
  cachedProvider = providerNamed(content);
  return cachedProvider;
}
