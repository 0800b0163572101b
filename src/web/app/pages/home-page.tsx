import { useId, useState } from 'react';
import { Search } from 'lucide-react';
import { displayName } from '@domain/roles';
import { Input } from '../../components/ui/input';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useSignedInUser } from '../../lib/use-auth';
import { addProductToCart } from '../../features/cart/add-to-cart';
import { useCategories } from '../../features/catalog/api/get-categories';
import { ALL_CATEGORIES, useProducts } from '../../features/catalog/api/get-products';
import { CategoryChips } from '../../features/catalog/components/category-chips';
import { ProductGrid } from '../../features/catalog/components/product-grid';
import { AppLayout } from '../layouts/app-layout';

/** Typing pauses this long before the search is sent. */
const SEARCH_DEBOUNCE_MS = 300;

/** The signed-in home (spec buyer §2 Home): hero, search, category chips, "Featured Products". */
export function HomePage() {
  useDocumentTitle('Home');
  const user = useSignedInUser();
  const searchId = useId();
  const [searchInput, setSearchInput] = useState('');
  const [category, setCategory] = useState<string>(ALL_CATEGORIES);
  const search = useDebouncedValue(searchInput, SEARCH_DEBOUNCE_MS);

  const categories = useCategories();
  const products = useProducts({ search, category });
  const greetingName = user.firstName?.trim() ? user.firstName.trim() : displayName(user);

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
        <div className="flex flex-col gap-4">
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
              value={searchInput}
              onChange={(event) => setSearchInput(event.target.value)}
              className="pl-9"
              data-testid="input-search"
              autoComplete="off"
            />
          </div>
          <CategoryChips categories={categories.data ?? []} selected={category} onSelect={setCategory} />
        </div>

        <div className="mb-6 mt-10 flex items-baseline justify-between gap-4">
          <h2 id="products-heading" className="text-2xl font-bold tracking-tight">
            Featured Products
          </h2>
          {products.isFetching && !products.isLoading ? (
            <span role="status" className="text-sm text-muted-foreground">
              Updating...
            </span>
          ) : null}
        </div>
        <ProductGrid
          products={products.data}
          isLoading={products.isLoading}
          isError={products.isError}
          onAdd={addProductToCart}
        />
      </section>
    </AppLayout>
  );
}
