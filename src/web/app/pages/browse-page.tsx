import { useDocumentTitle } from '../../lib/use-document-title';
import { addProductToCart } from '../../features/cart/add-to-cart';
import { CatalogBrowser } from '../../features/catalog/components/catalog-browser';
import { PublicLayout } from '../layouts/public-layout';

/**
 * /products for visitors (docs/rules/screens-buyer.md, Routes and headers; Catalog screens): the catalog
 * with search and categories, so a visitor can browse before signing in. The distance filter asks
 * to sign in; Add to Cart fills the cart on this device.
 */
export function BrowsePage() {
  useDocumentTitle('Browse products');
  return (
    <PublicLayout>
      <div className="mb-8">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Browse products</h1>
        <p className="mt-1 text-muted-foreground">
          Everything local sellers offer right now. Sign in when you are ready to check out.
        </p>
      </div>
      <section aria-labelledby="browse-products-heading">
        <CatalogBrowser
          locationStatus="signed-out"
          viewerId={null}
          onAdd={addProductToCart}
          headingId="browse-products-heading"
        />
      </section>
    </PublicLayout>
  );
}
