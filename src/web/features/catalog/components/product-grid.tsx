import type { ReactNode } from 'react';
import { LoaderCircle, PackageSearch, TriangleExclamationPoint } from 'lucide-react';
import type { ProductListItem } from '@domain/catalog';
import { Button } from '../../../components/ui/button';
import { ProductCard } from './product-card';

/** The one text for a product list that could not be read (docs/rules/screens-buyer.md, Catalog screens). */
export const FETCH_PRODUCTS_FAILED_TEXT = 'Failed to fetch products';

export interface ProductGridPaging {
  hasMore: boolean;
  isLoadingMore: boolean;
  /** The last "Load more" failed; the products read before stay on screen. */
  loadMoreFailed: boolean;
  onLoadMore: () => void;
}

interface ProductGridProps {
  products: readonly ProductListItem[] | undefined;
  isLoading: boolean;
  isError: boolean;
  onAdd: (product: ProductListItem) => void;
  paging?: ProductGridPaging;
  /** Who is looking: their own products cannot be added. */
  viewerId?: string | null;
}

function LoadMore({ hasMore, isLoadingMore, loadMoreFailed, onLoadMore }: ProductGridPaging) {
  if (!hasMore && !loadMoreFailed) return null;
  return (
    <div className="mt-10 flex flex-col items-center gap-3">
      {loadMoreFailed ? (
        <p role="alert" className="text-sm font-medium text-destructive">
          {FETCH_PRODUCTS_FAILED_TEXT}
        </p>
      ) : null}
      <Button variant="outline" size="lg" onClick={onLoadMore} disabled={isLoadingMore}>
        {isLoadingMore ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : null}
        {isLoadingMore ? 'Loading more...' : loadMoreFailed ? 'Try again' : 'Load more'}
      </Button>
    </div>
  );
}

/**
 * The products with their loading, empty and failure texts (docs/rules/screens-buyer.md, Catalog screens)
 * and the "Load more" button that pages through the rest. The test id sits on a wrapper that is
 * always there.
 */
export function ProductGrid({
  products,
  isLoading,
  isError,
  onAdd,
  paging,
  viewerId = null,
}: ProductGridProps) {
  let content: ReactNode;
  if (isLoading) {
    content = (
      <p role="status" className="py-16 text-center text-muted-foreground">
        Loading products...
      </p>
    );
  } else if (isError && !products?.length) {
    content = (
      <div role="alert" className="flex flex-col items-center gap-2 py-16 text-center">
        <TriangleExclamationPoint className="size-8 text-destructive" aria-hidden="true" />
        <p className="font-medium text-destructive">{FETCH_PRODUCTS_FAILED_TEXT}</p>
      </div>
    );
  } else if (!products || products.length === 0) {
    content = (
      <div className="flex flex-col items-center gap-2 py-16 text-center">
        <PackageSearch className="size-8 text-muted-foreground" aria-hidden="true" />
        <p className="text-muted-foreground">No products found</p>
      </div>
    );
  } else {
    content = (
      <>
        <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          {products.map((product, index) => (
            <li key={product.id} className="flex [&>article]:w-full">
              <ProductCard product={product} onAdd={onAdd} viewerId={viewerId} isFirst={index === 0} />
            </li>
          ))}
        </ul>
        {paging ? <LoadMore {...paging} /> : null}
      </>
    );
  }
  return <div data-testid="product-grid">{content}</div>;
}
