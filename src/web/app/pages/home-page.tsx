import { useId } from 'react';
import { Search } from 'lucide-react';
import { displayName } from '@domain/roles';
import { Input } from '../../components/ui/input';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useSignedInUser } from '../../lib/use-auth';
import { useAddresses } from '../../features/addresses/api/get-addresses';
import { addProductToCart } from '../../features/cart/add-to-cart';
import { useCategories } from '../../features/catalog/api/get-categories';
import { useProducts } from '../../features/catalog/api/get-products';
import { CategoryChips } from '../../features/catalog/components/category-chips';
import { DistanceFilter, type LocationStatus } from '../../features/catalog/components/distance-filter';
import { ProductGrid } from '../../features/catalog/components/product-grid';
import { useCatalogFilters } from '../../features/catalog/use-catalog-filters';
import { AppLayout } from '../layouts/app-layout';

/** DECISIONS §4: distance is measured from the buyer's primary address, once it has coordinates. */
function useLocationStatus(): LocationStatus {
  const addresses = useAddresses();
  if (addresses.isPending) return 'loading';
  const primary = addresses.data?.find((address) => address.isPrimary);
  return primary && primary.latitude !== null && primary.longitude !== null ? 'available' : 'unavailable';
}

/**
 * The signed-in home (spec buyer §2 Home): hero, search, category chips, the distance filter and
 * the "Featured Products" grid, paged with "Load more" so the whole catalog can be reached.
 */
export function HomePage() {
  useDocumentTitle('Home');
  const user = useSignedInUser();
  const searchId = useId();
  const filters = useCatalogFilters();
  const locationStatus = useLocationStatus();

  const categories = useCategories();
  const products = useProducts(filters.queryFor(locationStatus === 'available'));
  const greetingName = user.firstName?.trim() ? user.firstName.trim() : displayName(user);
  const isUpdating = products.isFetching && !products.isLoading && !products.isFetchingNextPage;

  return (
    <AppLayout contained={false}>
      <section
        aria-labelledby="home-heading"
        className="bg-gradient-to-br from-hero-from to-hero-to text-white"
      >
        <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 sm:py-16">
          <p className="text-sm font-medium uppercase tracking-wider text-white/90">
            Welcome back, {greetingName}
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
        <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
          <div className="flex min-w-0 flex-col gap-4">
            <div className="relative max-w-xl">
              <label htmlFor={searchId} className="sr-only">
                Search products
              </label>
              <Search
                className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
                aria-hidden="true"
              />
              <Input
                id={searchId}
                type="search"
                placeholder="Search products..."
                value={filters.searchInput}
                onChange={(event) => filters.setSearchInput(event.target.value)}
                className="pl-9"
                data-testid="input-search"
                autoComplete="off"
              />
            </div>
            <CategoryChips
              categories={categories.data ?? []}
              selected={filters.category}
              onSelect={filters.setCategory}
            />
          </div>
          <DistanceFilter
            locationStatus={locationStatus}
            isOn={filters.isDistanceOn}
            onToggle={filters.setDistanceOn}
            miles={filters.miles}
            onMilesChange={filters.setMiles}
          />
        </div>

        <div className="mb-6 mt-10 flex items-baseline justify-between gap-4">
          <h2 id="products-heading" className="text-2xl font-bold tracking-tight">
            Featured Products
          </h2>
          <span role="status" className="text-sm text-muted-foreground">
            {isUpdating ? 'Updating...' : ''}
          </span>
        </div>
        <ProductGrid
          products={products.products}
          isLoading={products.isLoading}
          isError={products.isError}
          onAdd={addProductToCart}
          paging={{
            hasMore: products.hasNextPage,
            isLoadingMore: products.isFetchingNextPage,
            loadMoreFailed: products.isFetchNextPageError,
            onLoadMore: () => void products.fetchNextPage(),
          }}
        />
      </section>
    </AppLayout>
  );
}
