import { Link, useLocation } from 'wouter';
import { House, LockKeyhole, LogIn, ShoppingCart } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { Card, CardContent } from '../../components/ui/card';
import { signIn } from '../../lib/navigation';
import { useDocumentTitle } from '../../lib/use-document-title';
import { PublicLayout } from '../layouts/public-layout';

/**
 * Where a visitor lands on a page that needs an account (docs/rules/screens-buyer.md, Routes and headers):
 * never the 404, but a sign-in that comes back to this page. Checkout keeps the cart (it lives in
 * the browser), so signing in from here lands back in checkout with the same items. The payment
 * page starts from checkout's choices, so it comes back to checkout.
 */
export function SignInRequiredPage() {
  const [location] = useLocation();
  const isCheckout = location === '/checkout' || location === '/payment';
  const returnTo = isCheckout ? '/checkout' : `${location}${window.location.search}`;
  useDocumentTitle(isCheckout ? 'Sign in to check out' : 'Sign in');

  return (
    <PublicLayout>
      <Card className="mx-auto max-w-md" data-testid="card-sign-in-required">
        <CardContent className="flex flex-col items-center gap-4 p-8 text-center">
          <span className="inline-flex size-12 items-center justify-center rounded-full bg-accent text-accent-foreground">
            {isCheckout ? (
              <ShoppingCart className="size-6" aria-hidden="true" />
            ) : (
              <LockKeyhole className="size-6" aria-hidden="true" />
            )}
          </span>
          <h1 className="text-2xl font-bold tracking-tight">
            {isCheckout ? 'Sign in to check out' : 'Please sign in'}
          </h1>
          <p className="text-muted-foreground">
            {isCheckout
              ? 'Your cart is kept on this device. Sign in or create an account, and you will come straight back to checkout.'
              : 'This page needs an account. Sign in or create one, and you will come straight back here.'}
          </p>
          <div className="flex w-full flex-col gap-2 sm:flex-row sm:justify-center">
            <Button onClick={() => signIn({ returnTo })} data-testid="button-sign-in-to-continue">
              <LogIn aria-hidden="true" />
              Sign In
            </Button>
            <Button asChild variant="outline">
              {isCheckout ? (
                <Link href="/cart">
                  <ShoppingCart aria-hidden="true" />
                  Back to Cart
                </Link>
              ) : (
                <Link href="/">
                  <House aria-hidden="true" />
                  Back to Home
                </Link>
              )}
            </Button>
          </div>
        </CardContent>
      </Card>
    </PublicLayout>
  );
}
