import { useState } from 'react';
import { displayName } from '@domain/roles';
import { greetingFor } from '@domain/greeting';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useSignedInUser } from '../../lib/use-auth';
import { useAddresses } from '../../features/addresses/api/get-addresses';
import { addProductToCart } from '../../features/cart/add-to-cart';
import { CatalogBrowser } from '../../features/catalog/components/catalog-browser';
import type { LocationStatus } from '../../features/catalog/components/distance-filter';
import { AppLayout } from '../layouts/app-layout';

/**
 * Distance is measured from the buyer's primary address, once it has coordinates
 * (docs/rules/catalog-and-orders.md, Catalog and distance).
 */
function useLocationStatus(): LocationStatus {
  const addresses = useAddresses();
  if (addresses.isPending) return 'loading';
  const primary = addresses.data?.find((address) => address.isPrimary);
  return primary && primary.latitude !== null && primary.longitude !== null ? 'available' : 'unavailable';
}

/**
 * The signed-in home (docs/rules/screens-buyer.md, Catalog screens): hero, search, category chips, the
 * distance filter and the "Featured Products" grid, paged with "Load more" so the whole catalog can
 * be reached. A new account is greeted "Welcome", a returning one "Welcome back".
 */
export function HomePage() {
  useDocumentTitle('Home');
  const user = useSignedInUser();
  const locationStatus = useLocationStatus();
  // The greeting is decided once per visit of the page, not at every render.
  const [greeting] = useState(() => greetingFor(user, new Date()));
  const greetingName = user.firstName?.trim() ? user.firstName.trim() : displayName(user);

  return (
    <AppLayout contained={false}>
      <section
        aria-labelledby="home-heading"
        className="bg-gradient-to-br from-hero-from to-hero-to text-white"
      >
        <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 sm:py-16">
          <p
            className="text-sm font-medium uppercase tracking-wider text-white/90"
            data-testid="text-greeting"
          >
            {greeting}, {greetingName}
          </p>
          <h1
            id="home-heading"
            className="mt-2 max-w-2xl text-3xl font-bold tracking-tight text-balance sm:text-4xl"
          >
            Shop from local sellers, delivered to your door
          </h1>
          <p className="mt-4 max-w-2xl text-white/90 sm:text-lg">
            Find what you need nearby and choose how it reaches you: by one of our drivers, by the seller, or
            ready for pickup.
          </p>
        </div>
      </section>

      <section aria-labelledby="products-heading" className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
        <CatalogBrowser
          locationStatus={locationStatus}
          viewerId={user.id}
          onAdd={addProductToCart}
          headingId="products-heading"
        />
      </section>
    </AppLayout>
  );
}
