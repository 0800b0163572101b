import { useId } from 'react';
import { Search } from 'lucide-react';
import type { ProductListItem } from '@domain/catalog';
import { Input } from '../../../components/ui/input';
import { useCategories } from '../api/get-categories';
import { useProducts } from '../api/get-products';
import { useCatalogFilters } from '../use-catalog-filters';
import { CategoryChips } from './category-chips';
import { DistanceFilter, type LocationStatus } from './distance-filter';
import { ProductGrid } from './product-grid';

/**
 * The catalog as the home page and the visitors' browse page show it
 * (docs/rules/screens-buyer.md, Catalog screens): a search box, category chips, the distance filter
 * (signing in for a visitor) and the "Featured Products" grid, paged with "Load more".
 */
export function CatalogBrowser({
  locationStatus,
  viewerId,
  onAdd,
  headingId,
}: {
  locationStatus: LocationStatus;
  /** Who is looking: a user's id, or null for a visitor. */
  viewerId: string | null;
  onAdd: (product: ProductListItem) => void;
  /** The id of the "Featured Products" heading, for the section that holds the browser. */
  headingId: string;
}) {
  const searchId = useId();
  const filters = useCatalogFilters();
  const categories = useCategories();
  const products = useProducts(filters.queryFor(locationStatus === 'available'));
  const isUpdating = products.isFetching && !products.isLoading && !products.isFetchingNextPage;

  return (
    <>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
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
        <h2 id={headingId} className="text-2xl font-bold tracking-tight">
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
        onAdd={onAdd}
        viewerId={viewerId}
        paging={{
          hasMore: products.hasNextPage,
          isLoadingMore: products.isFetchingNextPage,
          loadMoreFailed: products.isFetchNextPageError,
          onLoadMore: () => void products.fetchNextPage(),
        }}
      />
    </>
  );
}
