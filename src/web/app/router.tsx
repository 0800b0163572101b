import { lazy, useEffect, useRef, type ComponentType } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { ErrorBoundary, OptionalPart } from '../components/error-boundary';
import { PageLoading } from '../components/page-loading';
import { useAuth } from '../lib/use-auth';
import { noteRouteChange } from '../lib/use-go-back';
import { preloadableLazy } from '../lib/preloadable-lazy';
import { SIGNED_IN_PAGES } from '@domain/web-pages';
import { SiteLayout } from './layouts/site-layout';
import { HomePage } from './pages/home-page';
import { LandingPage } from './pages/landing-page';
import { preloadLandingParts } from './pages/landing-parts';
import { NotFoundPage } from './pages/not-found-page';
import { Suspense } from '../components/suspense';

/**
 * Every page but the landing and the home is loaded on demand, so the first load of either stays
 * small (docs/rules/screens-buyer.md, Routes and headers). React.lazy needs a default export.
 */
function lazyPage<Name extends string>(
  load: () => Promise<Record<Name, ComponentType>>,
  name: Name,
  label = 'Loading...',
): ComponentType & { preload: () => Promise<unknown> } {
  const { Component: Page, preload } = preloadableLazy(async () => (await load())[name]);
  function LazyPage() {
    const [location] = useLocation();
    // A page whose code cannot be fetched, or that throws, says so under the header; another
    // address clears it.
    return (
      <ErrorBoundary resetKey={location} frame={(message) => <SiteLayout>{message}</SiteLayout>}>
        <Suspense
          fallback={
            <SiteLayout>
              <PageLoading label={label} fillsPage />
            </SiteLayout>
          }
        >
          <Page />
        </Suspense>
      </ErrorBoundary>
    );
  }
  LazyPage.displayName = `Lazy(${name})`;
  LazyPage.preload = preload;
  return LazyPage;
}

const AddressesPage = lazyPage(() => import('./pages/addresses-page'), 'AddressesPage');
const AdminPage = lazyPage(() => import('./pages/admin-page'), 'AdminPage');
const AvailabilityPage = lazyPage(() => import('./pages/availability-page'), 'AvailabilityPage');
const BrowsePage = lazyPage(() => import('./pages/browse-page'), 'BrowsePage');
const BuyerOrdersPage = lazyPage(() => import('./pages/buyer-orders-page'), 'BuyerOrdersPage');
const CartPage = lazyPage(() => import('./pages/cart-page'), 'CartPage');
const CheckoutPage = lazyPage(() => import('./pages/checkout-page'), 'CheckoutPage');
const DriverDashboardPage = lazyPage(() => import('./pages/driver-dashboard-page'), 'DriverDashboardPage');
const PaymentPage = lazyPage(() => import('./pages/payment-page'), 'PaymentPage', 'Loading payment...');
const ProductPage = lazyPage(() => import('./pages/product-page'), 'ProductPage');
const ProfilePage = lazyPage(() => import('./pages/profile-page'), 'ProfilePage');
const SellerDashboardPage = lazyPage(() => import('./pages/seller-dashboard-page'), 'SellerDashboardPage');
const SignInRequiredPage = lazyPage(() => import('./pages/sign-in-required-page'), 'SignInRequiredPage');
const SupportPage = lazyPage(() => import('./pages/support-page'), 'SupportPage');
const TestPayoutDashboardPage = lazyPage(
  () => import('./pages/test-payout-dashboard-page'),
  'TestPayoutDashboardPage',
);
const TestPayoutOnboardingPage = lazyPage(
  () => import('./pages/test-payout-onboarding-page'),
  'TestPayoutOnboardingPage',
);
/**
 * The page of the address the app opens on starts loading with the app, beside the request for the
 * current user, instead of after it (docs/decisions/0014-first-load.md). Before hydrating a page the
 * server rendered, the browser waits for it (main.tsx).
 */
const START_PAGES: [RegExp, (search: string) => Promise<unknown>][] = [
  [/^\/$/, preloadLandingParts],
  [/^\/products\/[^/]+\/?$/, ProductPage.preload],
  [/^\/products\/?$/, BrowsePage.preload],
  [/^\/cart\/?$/, CartPage.preload],
  [/^\/checkout\/?$/, CheckoutPage.preload],
  [/^\/driver\/dashboard\/?$/, DriverDashboardPage.preload],
  [/^\/seller\/dashboard\/?$/, SellerDashboardPage.preload],
  // The admin page, then the tab its address names (`?tab=`).
  [
    /^\/admin\/?$/,
    async (search) => {
      await AdminPage.preload();
      await (await import('./pages/admin-tabs')).preloadAdminTab(search);
    },
  ],
];

/** Loads the lazy parts of the page at `pathname` and `search` (nothing for a page without). */
export function preloadStartPage(pathname: string, search = ''): Promise<unknown> {
  return START_PAGES.find(([path]) => path.test(pathname))?.[1](search) ?? Promise.resolve();
}

/** Live updates for a signed-in user (docs/rules/live-updates.md, Live updates), outside the first load. */
const LiveUpdates = lazy(async () => ({
  default: (await import('../features/live-updates/live-updates')).LiveUpdates,
}));

/** A client-side navigation starts at the top of the new page (and is counted for "Back"). */
function ScrollToTop() {
  const [location] = useLocation();
  // The page the app opens on stays where the browser put it (the top, or where a reload left it):
  // scrolling it would also make the browser lay the page out at once, in the middle of hydration.
  const scrolledFor = useRef(location);
  useEffect(() => {
    noteRouteChange(location);
    if (scrolledFor.current === location) return;
    scrolledFor.current = location;
    window.scrollTo(0, 0);
  }, [location]);
  return null;
}

/** The pages that need an account; a visitor is asked to sign in there and comes back. */
const SIGNED_IN_ONLY = SIGNED_IN_PAGES;

function WaitForUser() {
  return (
    <main id="main">
      <PageLoading fillsPage />
    </main>
  );
}

/**
 * Visitors browse (docs/rules/screens-buyer.md, Routes and headers): the landing, the catalog, a product
 * (a shared link), the cart and support. Every other page of a signed-in user asks a visitor to sign
 * in and comes back to it, never the 404; only an unknown path is the 404. While the current user is
 * loading, only the landing and support show; other paths wait for the answer instead of flashing a
 * visitor's page at a signed-in user.
 */
function SignedOutRoutes({ isLoading }: { isLoading: boolean }) {
  if (isLoading) {
    return (
      <Switch>
        <Route path="/" component={LandingPage} />
        <Route path="/support" component={SupportPage} />
        <Route component={WaitForUser} />
      </Switch>
    );
  }
  return (
    <Switch>
      <Route path="/" component={LandingPage} />
      <Route path="/products" component={BrowsePage} />
      <Route path="/products/:id" component={ProductPage} />
      <Route path="/cart" component={CartPage} />
      <Route path="/support" component={SupportPage} />
      {SIGNED_IN_ONLY.map((path) => (
        <Route key={path} path={path} component={SignInRequiredPage} />
      ))}
      <Route component={NotFoundPage} />
    </Switch>
  );
}

/**
 * An administrator who must turn on two-factor sign-in goes to the profile's setup before anything
 * else (docs/decisions/0024-two-factor-sign-in.md); support stays open. The profile's route is the
 * same one either way, so turning it on (which ends `setupFirst`) keeps the page and its recovery
 * codes on screen.
 */
function SignedInRoutes({ setupFirst }: { setupFirst: boolean }) {
  return (
    <Switch>
      <Route path="/profile" component={ProfilePage} />
      <Route path="/support" component={SupportPage} />
      {setupFirst ? (
        <Route>
          <Redirect to="/profile" replace />
        </Route>
      ) : null}
      <Route path="/" component={HomePage} />
      {/* The visitors' catalog is the home page's once signed in. */}
      <Route path="/products">
        <Redirect to="/" replace />
      </Route>
      <Route path="/products/:id" component={ProductPage} />
      <Route path="/cart" component={CartPage} />
      <Route path="/checkout" component={CheckoutPage} />
      <Route path="/payment" component={PaymentPage} />
      <Route path="/buyer/orders" component={BuyerOrdersPage} />
      <Route path="/seller/dashboard" component={SellerDashboardPage} />
      <Route path="/driver/dashboard" component={DriverDashboardPage} />
      <Route path="/admin" component={AdminPage} />
      <Route path="/addresses" component={AddressesPage} />
      <Route path="/availability" component={AvailabilityPage} />
      <Route path="/payouts/test-onboarding/:accountId" component={TestPayoutOnboardingPage} />
      <Route path="/payouts/test-dashboard/:accountId" component={TestPayoutDashboardPage} />
      <Route component={NotFoundPage} />
    </Switch>
  );
}

/** The route table (docs/rules/screens-buyer.md, Routes and headers). Any path not listed shows the 404 page. */
export function AppRouter() {
  const { isAuthenticated, isLoading, user } = useAuth();
  return (
    <>
      <ScrollToTop />
      {isAuthenticated ? (
        <SignedInRoutes setupFirst={user?.twoFactorSetupRequired === true} />
      ) : (
        <SignedOutRoutes isLoading={isLoading} />
      )}
      {user ? (
        // Live updates are an extra: if their code cannot be fetched the page goes on without them.
        <OptionalPart>
          <LiveUpdates userId={user.id} />
        </OptionalPart>
      ) : null}
    </>
  );
}
