import { Link } from 'wouter';
import { ArrowRight, PackageSearch, TriangleExclamationPoint } from 'lucide-react';
import type { ProductListItem } from '@domain/catalog';
import { Button } from '../../../components/ui/button';
import { useFeaturedProducts } from '../api/get-products';
import { FETCH_PRODUCTS_FAILED_TEXT } from './product-grid';
import { ProductCard } from './product-card';

/**
 * The landing's "Featured Products" strip (docs/rules/screens-buyer.md, Routes and headers): the newest
 * products a visitor can open, add to the cart, or follow into the whole catalog. A row that scrolls
 * sideways on a phone, a grid on a wide screen. Loaded with its own code and data only when the
 * landing scrolls near it, so the landing's first load stays small.
 */
export function FeaturedStrip({ onAdd }: { onAdd: (product: ProductListItem) => void }) {
  const products = useFeaturedProducts();

  let content;
  if (products.isPending) {
    content = (
      <p role="status" className="py-10 text-center text-muted-foreground">
        Loading products...
      </p>
    );
  } else if (products.isError) {
    content = (
      <p role="alert" className="flex items-center justify-center gap-2 py-10 text-destructive">
        <TriangleExclamationPoint className="size-5" aria-hidden="true" />
        {FETCH_PRODUCTS_FAILED_TEXT}
      </p>
    );
  } else if (products.data.length === 0) {
    content = (
      <p className="flex items-center justify-center gap-2 py-10 text-muted-foreground">
        <PackageSearch className="size-5" aria-hidden="true" />
        No products found
      </p>
    );
  } else {
    content = (
      <ul
        className="-mx-4 flex snap-x snap-mandatory scroll-px-4 gap-4 overflow-x-auto px-4 pb-4 sm:mx-0 sm:grid sm:snap-none sm:grid-cols-2 sm:overflow-visible sm:px-0 lg:grid-cols-4"
        data-testid="list-featured-products"
      >
        {products.data.map((product, index) => (
          <li key={product.id} className="flex w-64 shrink-0 snap-start sm:w-auto [&>article]:w-full">
            <ProductCard product={product} onAdd={onAdd} isFirst={index === 0} />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <>
      {content}
      <div className="mt-6 flex justify-center">
        <Button asChild variant="outline" size="lg">
          <Link href="/products">
            Browse all products
            <ArrowRight aria-hidden="true" />
          </Link>
        </Button>
      </div>
    </>
  );
}
