import type { ReactNode } from 'react';
import { PackageSearch, TriangleExclamationPoint } from 'lucide-react';
import type { ProductListItem } from '@domain/catalog';
import { ProductCard } from './product-card';

interface ProductGridProps {
  products: readonly ProductListItem[] | undefined;
  isLoading: boolean;
  isError: boolean;
  onAdd: (product: ProductListItem) => void;
}

/**
 * The products with their loading, empty and failure texts (spec buyer §2, §8). The test id
 * sits on a wrapper that is always there, whatever the state.
 */
export function ProductGrid({ products, isLoading, isError, onAdd }: ProductGridProps) {
  let content: ReactNode;
  if (isLoading) {
    content = (
      <p role="status" className="py-16 text-center text-muted-foreground">
        Loading products...
      </p>
    );
  } else if (isError) {
    content = (
      <div role="alert" className="flex flex-col items-center gap-2 py-16 text-center">
        <TriangleExclamationPoint className="size-8 text-destructive" aria-hidden="true" />
        <p className="font-medium text-destructive">Failed to fetch products</p>
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
      <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
        {products.map((product) => (
          <li key={product.id} className="flex [&>article]:w-full">
            <ProductCard product={product} onAdd={onAdd} />
          </li>
        ))}
      </ul>
    );
  }
  return <div data-testid="product-grid">{content}</div>;
}
