import { useId } from 'react';
import { Link } from 'wouter';
import { MapPin, Navigation, Plus, Star, Store, Truck } from 'lucide-react';
import type { ProductListItem } from '@domain/catalog';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { formatMilesAway, formatOneDecimal, formatPrice } from '../../../lib/format';
import { isPurchasable, sellerLocationOf } from '../product-rules';
import { ProductImage } from '../../../components/product-image';

/**
 * How wide a card's picture is drawn (docs/decisions/0014-first-load.md, Resized copies): the whole
 * width on a phone (one column, or a 256 px card of the featured strip), half from 640 px (two
 * columns), at most 300 px from 1024 px (three or four columns).
 */
const CARD_IMAGE_SIZES = '(min-width: 1024px) 300px, (min-width: 640px) 50vw, 100vw';

/** A product in the grid (docs/rules/screens-buyer.md, Catalog screens); the whole card opens /products/{id}. */
export function ProductCard({
  product,
  onAdd,
  viewerId = null,
  isFirst = false,
}: {
  product: ProductListItem;
  onAdd: (product: ProductListItem) => void;
  /** The first card of its list: its picture is the largest above the fold, fetched first. */
  isFirst?: boolean;
  /** Who is looking; a seller's own products cannot be added (docs/rules/catalog-and-orders.md, Checkout and orders). */
  viewerId?: string | null;
}) {
  const purchasable = isPurchasable(product);
  const isOwn = viewerId !== null && viewerId === product.sellerId;
  const location = sellerLocationOf(product);
  const nameId = useId();

  return (
    // Named by the product's name, so each card can be reached and told apart.
    <article
      aria-labelledby={nameId}
      data-testid={`card-product-${product.id}`}
      className="group relative flex flex-col overflow-hidden rounded-xl border bg-card text-card-foreground shadow-sm transition-shadow focus-within:ring-2 focus-within:ring-ring hover:shadow-md"
    >
      <div className="relative aspect-[4/3] overflow-hidden bg-muted">
        <ProductImage
          src={product.imageUrl}
          alt=""
          isPriority={isFirst}
          sizes={CARD_IMAGE_SIZES}
          className="transition-transform duration-300 group-hover:scale-[1.03]"
        />
        <div className="absolute left-3 top-3 flex flex-wrap gap-1.5">
          {purchasable ? (
            <Badge variant="success">Available</Badge>
          ) : (
            <Badge variant="destructive">Out of Stock</Badge>
          )}
          {product.requiresTrailer ? (
            <Badge variant="warning" data-testid={`badge-trailer-${product.id}`}>
              <Truck aria-hidden="true" />
              Trailer
            </Badge>
          ) : null}
          {isOwn ? (
            <Badge variant="secondary" data-testid={`badge-own-product-${product.id}`}>
              Your product
            </Badge>
          ) : null}
        </div>
      </div>

      <div className="flex flex-1 flex-col gap-2 p-4">
        <h3 id={nameId} className="line-clamp-2 text-base font-semibold leading-snug">
          <Link
            href={`/products/${product.id}`}
            data-testid={`link-product-${product.id}`}
            className="rounded-sm outline-none after:absolute after:inset-0 after:content-[''] hover:underline"
          >
            {product.name}
          </Link>
        </h3>

        <p className="flex min-w-0 items-center gap-1.5 text-sm text-muted-foreground">
          <Store className="size-4 shrink-0" aria-hidden="true" />
          <span className="truncate" data-testid={`text-seller-${product.id}`}>
            {product.sellerName}
          </span>
          <span aria-hidden="true">·</span>
          <Star className="size-4 shrink-0 fill-amber-400 text-amber-500" aria-hidden="true" />
          <span className="shrink-0">
            {/* Short, so the seller's name keeps its room on a narrow card. */}
            {product.sellerRating === null ? (
              'New seller'
            ) : (
              <>
                <span className="sr-only">Seller rating </span>
                {formatOneDecimal(product.sellerRating)}
              </>
            )}
          </span>
        </p>

        {location ? (
          <p
            className="flex min-w-0 items-center gap-1.5 text-sm text-muted-foreground"
            data-testid={`text-location-${product.id}`}
          >
            <MapPin className="size-4 shrink-0" aria-hidden="true" />
            <span className="truncate">{location}</span>
          </p>
        ) : null}

        {product.distance !== null ? (
          <p
            className="flex items-center gap-1.5 text-sm text-muted-foreground"
            data-testid={`text-distance-${product.id}`}
          >
            <Navigation className="size-4 shrink-0" aria-hidden="true" />
            {formatMilesAway(product.distance)}
          </p>
        ) : null}

        <div className="mt-auto flex items-center justify-between gap-3 pt-2">
          <span className="text-lg font-bold">{formatPrice(product.price)}</span>
          <Button
            size="sm"
            // Above the card's stretched link, so this click adds instead of opening the product.
            className="relative z-10"
            disabled={!purchasable || isOwn}
            onClick={() => onAdd(product)}
            aria-label={isOwn ? `${product.name} is your product` : `Add ${product.name} to cart`}
          >
            <Plus aria-hidden="true" />
            Add
          </Button>
        </div>
      </div>
    </article>
  );
}
