import { Link } from 'wouter';
import { ExternalLink } from 'lucide-react';
import { BrandMark, PRODUCT_NAME } from '../../components/brand';
import { paymentProvider } from '../../lib/payment-provider';

/**
 * The payment provider's site (docs/rules/screens-buyer.md, Routes and headers: "an external link to the
 * provider's site").
 */
const PAYMENT_PROVIDER_URL = 'https://stripe.com';

/** What the footer says while the built-in test provider runs: no provider secures anything then. */
const TEST_PAYMENTS_TEXT = 'Test payments: no real money is taken';

export function SiteFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="border-t bg-muted/50">
      <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-10 sm:px-6 md:flex-row md:items-start md:justify-between">
        <div className="max-w-sm">
          <div className="flex items-center gap-2 font-semibold">
            <BrandMark className="size-8" />
            <span>{PRODUCT_NAME}</span>
          </div>
          <p className="mt-3 text-sm text-muted-foreground">
            Local sellers, reliable drivers and the people who shop with them, in one marketplace.
          </p>
        </div>
        <nav aria-label="Footer">
          <ul className="flex flex-col gap-3 text-sm">
            <li>
              <Link
                href="/support"
                className="font-medium underline-offset-4 hover:underline focus-visible:rounded-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              >
                Support &amp; Contact
              </Link>
            </li>
            <li>
              {/* Stripe is named only when it takes the payments (docs/rules/screens-buyer.md, Routes and headers). */}
              {paymentProvider() === 'stripe' ? (
                <a
                  href={PAYMENT_PROVIDER_URL}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="inline-flex items-center gap-1 font-medium underline-offset-4 hover:underline focus-visible:rounded-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                >
                  Payments secured by Stripe
                  <ExternalLink className="size-3.5" aria-hidden="true" />
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              ) : (
                <span className="text-muted-foreground" data-testid="text-test-payments">
                  {TEST_PAYMENTS_TEXT}
                </span>
              )}
            </li>
          </ul>
        </nav>
      </div>
      <div className="border-t">
        <p
          className="mx-auto max-w-7xl px-4 py-4 text-sm text-muted-foreground sm:px-6"
          data-testid="text-copyright"
        >
          © {year} {PRODUCT_NAME}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
