import { useId, type ReactNode } from 'react';
import { Link } from 'wouter';
import {
  LogIn,
  MapPin,
  MessageSquare,
  Navigation,
  Package,
  PackageCheck,
  PackageX,
  ShoppingCart,
  Star,
  Store,
  Truck,
  UserRound,
  Warehouse,
  type LucideIcon,
} from 'lucide-react';
import type { ProductDetail as ProductDetailData, ProductImage } from '@domain/catalog';
import { OWN_PRODUCT_NOTE } from '@domain/checkout';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { formatMilesAway, formatOneDecimal, formatPrice } from '../../../lib/format';
import { signIn } from '../../../lib/navigation';
import {
  deliveryOptionOf,
  galleryOf,
  isPurchasable,
  NO_LONGER_AVAILABLE_TEXT,
  sellerLocationOf,
  stockTextOf,
  TRAILER_DELIVERY_TEXT,
  type DeliveryOption,
} from '../product-rules';
import { ProductGallery } from './product-gallery';

function InfoRow({
  icon: Icon,
  title,
  value,
  children,
  testId,
}: {
  icon: LucideIcon;
  title: string;
  value?: ReactNode;
  children?: ReactNode;
  testId?: string;
}) {
  return (
    <li className="flex gap-3" data-testid={testId}>
      <Icon className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3">
          <p className="font-medium">{title}</p>
          {value ? <p className="font-semibold tabular-nums">{value}</p> : null}
        </div>
        {children ? <p className="text-sm text-muted-foreground">{children}</p> : null}
      </div>
    </li>
  );
}

function DeliveryRow({ option }: { option: DeliveryOption }) {
  switch (option.kind) {
    case 'seller':
      return (
        <InfoRow icon={Store} title="Seller delivery" value={formatPrice(option.fee)} testId="info-delivery">
          The seller delivers this product to your door.
        </InfoRow>
      );
    case 'trailer':
      // The fee shown is the one charged, flat (docs/rules/screens-buyer.md, Catalog screens;
      // docs/rules/known-differences.md, Known differences).
      return (
        <InfoRow icon={Truck} title="Trailer delivery" value={formatPrice(option.fee)} testId="info-delivery">
          {TRAILER_DELIVERY_TEXT}
        </InfoRow>
      );
    case 'driver':
      return (
        <InfoRow icon={Truck} title="Driver delivery" value={formatPrice(option.fee)} testId="info-delivery">
          Delivered to your door by one of our drivers.
        </InfoRow>
      );
  }
}

interface ProductDetailProps {
  product: ProductDetailData;
  /** The extra images (GET /api/products/{id}/images). */
  images: readonly ProductImage[];
  onAdd: (product: ProductDetailData) => void;
  /** Who is looking: a user's id, or null for a visitor. */
  viewerId: string | null;
  /** How many of this product the cart holds already: Add stops at the stock. */
  inCartQuantity?: number;
  /**
   * The seller's rating and number of reviews under the name, where the specification showed a
   * placeholder "4.5 (24 reviews)" (docs/rules/screens-buyer.md, Catalog screens).
   */
  rating?: ReactNode;
  /** A signed-in buyer's conversation with the seller (docs/rules/selling.md, Reviews and messages). */
  messageCard?: ReactNode;
}

/**
 * The message-the-seller card of a visitor (docs/rules/screens-buyer.md, Catalog screens): asked to sign
 * in. A signed-in buyer gets the conversation itself (`messageCard`); the seller of the product no
 * card at all.
 */
function MessageSellerCard({ productId }: { productId: string }) {
  const messageTitleId = useId();
  return (
    <Card role="region" aria-labelledby={messageTitleId}>
      <CardHeader className="pb-4">
        <CardTitle id={messageTitleId} as="h2" className="flex items-center gap-2">
          <MessageSquare className="size-5" aria-hidden="true" />
          Message the seller
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col items-start gap-3">
        <p className="text-sm text-muted-foreground">Please log in to message the seller</p>
        <Button variant="outline" size="sm" onClick={() => signIn({ returnTo: `/products/${productId}` })}>
          <LogIn aria-hidden="true" />
          Sign In
        </Button>
      </CardContent>
    </Card>
  );
}

/**
 * The product detail (docs/rules/screens-buyer.md, Catalog screens): gallery, name, badges, price, category,
 * description, seller, stock, delivery and pickup information, Add to Cart (disabled when out of stock, for
 * the seller's own product, and once the cart holds the whole stock; absent for a cancelled product, which
 * says it is no longer available) and Continue Shopping. A visitor sees the message-the-seller card asking
 * them to sign in.
 */
export function ProductDetail({
  product,
  images,
  onAdd,
  viewerId,
  inCartQuantity = 0,
  rating,
  messageCard,
}: ProductDetailProps) {
  const purchasable = isPurchasable(product);
  // A seller cannot buy their own product (docs/rules/catalog-and-orders.md, Checkout and orders).
  const isOwn = viewerId !== null && viewerId === product.sellerId;
  const allInCart = purchasable && inCartQuantity >= product.stock;
  // Cancelled (not available) is final: nothing to add, whatever stock it kept
  // (docs/rules/catalog-and-orders.md, Catalog and distance; docs/rules/selling.md, Seller listings).
  const isCancelled = !product.available;
  const location = sellerLocationOf(product);
  const description = product.description?.trim();

  const sellerTitleId = useId();
  const deliveryTitleId = useId();
  return (
    <div className="grid grid-cols-1 gap-8 lg:grid-cols-2 lg:gap-12">
      <ProductGallery name={product.name} imageUrls={galleryOf(product.imageUrl, images)} />

      <div className="flex min-w-0 flex-col gap-6">
        <div className="flex flex-col gap-3">
          <div className="flex flex-wrap gap-2">
            {purchasable ? (
              <Badge variant="success" data-testid="badge-available">
                Available
              </Badge>
            ) : isCancelled ? (
              <Badge variant="destructive" data-testid="badge-no-longer-available">
                {NO_LONGER_AVAILABLE_TEXT}
              </Badge>
            ) : (
              <Badge variant="destructive" data-testid="badge-out-of-stock">
                Out of Stock
              </Badge>
            )}
            {product.requiresTrailer ? (
              <Badge variant="warning" data-testid="badge-trailer">
                <Truck aria-hidden="true" />
                Trailer
              </Badge>
            ) : null}
          </div>
          <h1 className="text-3xl font-bold tracking-tight text-balance">{product.name}</h1>
          {rating}
          <p className="text-3xl font-bold" data-testid="text-product-price">
            {formatPrice(product.price)}
          </p>
          <p className="text-sm text-muted-foreground">
            Category:{' '}
            <span className="font-medium text-foreground" data-testid="text-product-category">
              {product.category}
            </span>
          </p>
        </div>

        <section aria-labelledby="product-description-heading">
          <h2 id="product-description-heading" className="mb-2 text-lg font-semibold">
            Description
          </h2>
          <p className="whitespace-pre-line text-muted-foreground" data-testid="text-product-description">
            {description || 'No description provided.'}
          </p>
        </section>

        <div className="flex flex-col gap-3">
          <p
            className="flex items-center gap-2 font-medium"
            data-testid="text-product-stock"
            aria-live="polite"
          >
            {purchasable ? (
              <PackageCheck className="size-5 text-primary" aria-hidden="true" />
            ) : (
              <PackageX className="size-5 text-destructive" aria-hidden="true" />
            )}
            {stockTextOf(product)}
          </p>
          {isCancelled ? null : isOwn ? (
            <p className="text-sm text-muted-foreground" data-testid="text-own-product">
              {OWN_PRODUCT_NOTE}
            </p>
          ) : allInCart ? (
            <p className="text-sm text-muted-foreground" data-testid="text-all-in-cart">
              All {product.stock} in stock are in your cart.
            </p>
          ) : null}
          <div className="flex flex-col gap-3 sm:flex-row">
            {isCancelled ? null : (
              <Button
                size="lg"
                className="sm:flex-1"
                disabled={!purchasable || isOwn || allInCart}
                onClick={() => onAdd(product)}
              >
                <ShoppingCart aria-hidden="true" />
                Add to Cart
              </Button>
            )}
            <Button asChild size="lg" variant="outline" className="sm:flex-1">
              <Link href="/">Continue Shopping</Link>
            </Button>
          </div>
        </div>

        <Card role="region" aria-labelledby={sellerTitleId}>
          <CardHeader className="pb-4">
            <CardTitle id={sellerTitleId} as="h2">
              Seller information
            </CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="flex flex-col gap-4">
              <InfoRow icon={UserRound} title={product.sellerName} testId="info-seller-name">
                {product.sellerRating === null ? (
                  'No reviews yet'
                ) : (
                  <span className="inline-flex items-center gap-1">
                    <Star className="size-3.5 fill-amber-400 text-amber-500" aria-hidden="true" />
                    <span className="sr-only">Seller rating </span>
                    {formatOneDecimal(product.sellerRating)}
                  </span>
                )}
              </InfoRow>
              <InfoRow
                icon={MapPin}
                title={location ?? 'Location not available'}
                testId="info-seller-location"
              >
                {product.distance !== null ? (
                  <span className="inline-flex items-center gap-1">
                    <Navigation className="size-3.5" aria-hidden="true" />
                    {formatMilesAway(product.distance)}
                  </span>
                ) : null}
              </InfoRow>
            </ul>
          </CardContent>
        </Card>

        {viewerId === null ? <MessageSellerCard productId={product.id} /> : isOwn ? null : messageCard}

        <Card role="region" aria-labelledby={deliveryTitleId}>
          <CardHeader className="pb-4">
            <CardTitle id={deliveryTitleId} as="h2">
              Delivery and pickup
            </CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="flex flex-col gap-4">
              <DeliveryRow option={deliveryOptionOf(product)} />
              {product.offerPickup ? (
                <InfoRow icon={Warehouse} title="Pickup available" value="Free" testId="info-pickup">
                  Collect it from the seller at a time you choose at checkout.
                </InfoRow>
              ) : (
                <InfoRow icon={Package} title="Pickup not offered" testId="info-pickup">
                  This product is delivered only.
                </InfoRow>
              )}
            </ul>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
