import { ArrowLeft, House, PackageSearch, TriangleExclamationPoint } from 'lucide-react';
import { Link, useParams } from 'wouter';
import { Button } from '../../components/ui/button';
import { PageLoading } from '../../components/page-loading';
import { useAuth } from '../../lib/use-auth';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useGoBack } from '../../lib/use-go-back';
import { addProductToCart } from '../../features/cart/add-to-cart';
import { useCart } from '../../features/cart/use-cart';
import { isProductNotFound, useProduct } from '../../features/catalog/api/get-product';
import { useProductImages } from '../../features/catalog/api/get-product-images';
import { ProductDetail } from '../../features/catalog/components/product-detail';
import { ProductMessageCard } from '../../features/messages/components/product-message-card';
import { SellerRating } from '../../features/reviews/components/seller-rating';
import { SiteLayout } from '../layouts/site-layout';

function ProductNotFound() {
  return (
    <div className="flex flex-col items-center gap-4 py-16 text-center" data-testid="product-not-found">
      <PackageSearch className="size-12 text-muted-foreground" aria-hidden="true" />
      <h1 className="text-2xl font-bold tracking-tight">Product not found</h1>
      <p className="max-w-md text-muted-foreground">
        This product does not exist, or the link to it is incomplete.
      </p>
      <Button asChild>
        <Link href="/">
          <House aria-hidden="true" />
          Back to Home
        </Link>
      </Button>
    </div>
  );
}

function ProductLoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <div role="alert" className="flex flex-col items-center gap-4 py-16 text-center">
      <TriangleExclamationPoint className="size-12 text-destructive" aria-hidden="true" />
      <h1 className="text-2xl font-bold tracking-tight">Failed to load product</h1>
      <p className="max-w-md text-muted-foreground">Check your connection and try again.</p>
      <Button variant="outline" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

/**
 * /products/{id} (docs/rules/screens-buyer.md, Catalog screens): the product, or "Product not found" for
 * a 404. Visitors see it too, so a shared link opens the product (docs/rules/screens-buyer.md, Routes and
 * headers).
 */
export function ProductPage() {
  const { id = '' } = useParams<{ id: string }>();
  const { user } = useAuth();
  const { items } = useCart();
  const goBack = useGoBack();
  const product = useProduct(id);
  const images = useProductImages(id, product.data?.images);
  const isNotFound = product.isError && isProductNotFound(product.error);
  useDocumentTitle(product.data?.name ?? (isNotFound ? 'Product not found' : 'Product'));

  let content;
  if (product.isPending) content = <PageLoading label="Loading product..." fillsPage />;
  else if (isNotFound) content = <ProductNotFound />;
  else if (product.isError) content = <ProductLoadFailed onRetry={() => void product.refetch()} />;
  else
    content = (
      <ProductDetail
        product={product.data}
        images={images.data ?? product.data.images}
        onAdd={addProductToCart}
        viewerId={user?.id ?? null}
        inCartQuantity={items.find((item) => item.id === product.data.id)?.quantity ?? 0}
        rating={<SellerRating sellerId={product.data.sellerId} />}
        messageCard={
          user ? (
            <ProductMessageCard
              productId={product.data.id}
              sellerName={product.data.sellerName}
              viewerId={user.id}
            />
          ) : null
        }
      />
    );

  return (
    <SiteLayout>
      <Button variant="ghost" onClick={goBack} className="mb-6 -ml-3" data-testid="button-back">
        <ArrowLeft aria-hidden="true" />
        Back
      </Button>
      {content}
    </SiteLayout>
  );
}
