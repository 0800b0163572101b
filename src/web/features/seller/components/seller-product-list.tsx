import { useState } from 'react';
import { Link } from 'wouter';
import { Ban, ChevronDown, ChevronUp, Pencil, Plus } from 'lucide-react';
import { canCancelProduct, type SellerProduct } from '@domain/listings';
import { ProductImage } from '../../../components/product-image';
import { Button } from '../../../components/ui/button';
import { formatAmount } from '../format';
import { ProductStatusBadge } from './product-status-badge';

/** How many listings show before "Show all": the orders come after them on the page. */
export const LISTINGS_SHOWN = 8;

/**
 * The seller's own products, every status (docs/rules/screens-work.md, Seller screens): picture, name,
 * category, price, stock and status badge, with Edit while it is for sale and Cancel only for
 * available products.
 */
export function SellerProductList({
  products,
  onCreate,
  onEdit,
  onCancel,
}: {
  products: readonly SellerProduct[];
  onCreate: () => void;
  onEdit: (product: SellerProduct) => void;
  onCancel: (product: SellerProduct) => void;
}) {
  const [showAll, setShowAll] = useState(false);
  if (products.length === 0) {
    return (
      <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed p-8 text-center">
        <p className="text-sm text-muted-foreground">
          You have not listed anything yet. Your first listing shows on the home page as soon as it is
          created.
        </p>
        <Button onClick={onCreate}>
          <Plus aria-hidden="true" />
          Create Listing
        </Button>
      </div>
    );
  }
  const visible = showAll ? products : products.slice(0, LISTINGS_SHOWN);
  return (
    <div className="flex flex-col gap-3">
      <ul className="flex flex-col divide-y rounded-lg border">
        {visible.map((product) => (
          <li key={product.id} className="flex flex-wrap items-center gap-3 p-3 sm:flex-nowrap sm:gap-4">
            <div className="size-16 shrink-0 overflow-hidden rounded-md border bg-muted">
              <ProductImage src={product.imageUrl} alt="" />
            </div>
            <div className="flex min-w-48 flex-1 flex-col gap-1 sm:min-w-0">
              <div className="flex flex-wrap items-center gap-2">
                <Link
                  href={`/products/${product.id}`}
                  className="truncate font-medium hover:underline"
                  data-testid={`link-product-${product.id}`}
                >
                  {product.name}
                </Link>
                <ProductStatusBadge product={product} />
              </div>
              <p className="text-sm text-muted-foreground">
                <span>{product.category}</span>
                {' · '}
                <span className="font-medium text-foreground tabular-nums">
                  {formatAmount(product.price)}
                </span>
                {' · '}
                <span className="tabular-nums" data-testid="text-product-stock">
                  {product.stock} in stock
                </span>
                {product.imageUrls.length > 0 ? (
                  <>
                    {' · '}
                    <span>
                      {product.imageUrls.length} {product.imageUrls.length === 1 ? 'image' : 'images'}
                    </span>
                  </>
                ) : null}
              </p>
            </div>
            {canCancelProduct(product) ? (
              <div className="ml-auto flex shrink-0 gap-2">
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => onEdit(product)}
                  aria-label={`Edit ${product.name}`}
                >
                  <Pencil aria-hidden="true" />
                  Edit
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  className="text-destructive hover:text-destructive"
                  onClick={() => onCancel(product)}
                  aria-label={`Cancel ${product.name}`}
                >
                  <Ban aria-hidden="true" />
                  Cancel
                </Button>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      {products.length > LISTINGS_SHOWN ? (
        <Button
          variant="ghost"
          className="self-center"
          onClick={() => setShowAll((current) => !current)}
          aria-expanded={showAll}
        >
          {showAll ? <ChevronUp aria-hidden="true" /> : <ChevronDown aria-hidden="true" />}
          {showAll ? 'Show fewer' : `Show all ${products.length} listings`}
        </Button>
      ) : null}
    </div>
  );
}
