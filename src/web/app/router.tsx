import { lazy, Suspense, useEffect } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { PageLoading } from '../components/page-loading';
import { useAuth } from '../lib/use-auth';
import { noteRouteChange } from '../lib/use-go-back';
import { AppLayout } from './layouts/app-layout';
import { AddressesPage } from './pages/addresses-page';
import { AdminPage } from './pages/admin-page';
import { AvailabilityPage } from './pages/availability-page';
import { BuyerOrdersPage } from './pages/buyer-orders-page';
import { CartPage } from './pages/cart-page';
import { CheckoutPage } from './pages/checkout-page';
import { DriverDashboardPage } from './pages/driver-dashboard-page';
import { HomePage } from './pages/home-page';
import { LandingPage } from './pages/landing-page';
import { NotFoundPage } from './pages/not-found-page';
import { ProductPage } from './pages/product-page';
import { ProfilePage } from './pages/profile-page';
import { SellerDashboardPage } from './pages/seller-dashboard-page';
import { SupportPage } from './pages/support-page';

/** Spec buyer §2: the payment screen is loaded on demand. React.lazy needs a default export. */
const PaymentPage = lazy(() =>
  import('./pages/payment-page').then((module) => ({ default: module.PaymentPage })),
);

function LazyPaymentPage() {
  return (
    <Suspense
      fallback={
        <AppLayout>
          <PageLoading label="Loading payment..." />
        </AppLayout>
      }
    >
      <PaymentPage />
    </Suspense>
  );
}

/** A client-side navigation starts at the top of the new page (and is counted for "Back"). */
function ScrollToTop() {
  const [location] = useLocation();
  useEffect(() => {
    noteRouteChange(location);
    window.scrollTo(0, 0);
  }, [location]);
  return null;
}

/** Spec buyer §2: signed out, or while the current user is loading, only / and /support exist. */
function SignedOutRoutes({ isLoading }: { isLoading: boolean }) {
  return (
    <Switch>
      <Route path="/" component={LandingPage} />
      <Route path="/support" component={SupportPage} />
      <Route>
        {/* While loading, an unknown path waits for the answer instead of flashing the 404 at a signed-in user. */}
        {isLoading ? (
          <main id="main">
            <PageLoading />
          </main>
        ) : (
          <NotFoundPage />
        )}
      </Route>
    </Switch>
  );
}

function SignedInRoutes() {
  return (
    <Switch>
      <Route path="/" component={HomePage} />
      <Route path="/products/:id" component={ProductPage} />
      <Route path="/cart" component={CartPage} />
      <Route path="/checkout" component={CheckoutPage} />
      <Route path="/payment" component={LazyPaymentPage} />
      <Route path="/buyer/orders" component={BuyerOrdersPage} />
      <Route path="/seller/dashboard" component={SellerDashboardPage} />
      <Route path="/driver/dashboard" component={DriverDashboardPage} />
      <Route path="/admin" component={AdminPage} />
      <Route path="/addresses" component={AddressesPage} />
      <Route path="/availability" component={AvailabilityPage} />
      <Route path="/profile" component={ProfilePage} />
      <Route path="/support" component={SupportPage} />
      <Route component={NotFoundPage} />
    </Switch>
  );
}

/** The route table (spec buyer §2). Any path not listed shows the 404 page. */
export function AppRouter() {
  const { isAuthenticated, isLoading } = useAuth();
  return (
    <>
      <ScrollToTop />
      {isAuthenticated ? <SignedInRoutes /> : <SignedOutRoutes isLoading={isLoading} />}
    </>
  );
}
