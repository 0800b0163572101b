import { useId } from 'react';
import { Link } from 'wouter';
import { ShoppingBag, Trash } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { PageHeading } from '../../components/page-heading';
import { ProductImage } from '../../components/product-image';
import { formatPrice } from '../../lib/format';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useAuth } from '../../lib/use-auth';
import { useRefreshCartStock } from '../../features/cart/api/get-cart-stock';
import { lineTotal, maxQuantityOf } from '../../features/cart/cart-store';
import { CartLineNote } from '../../features/cart/components/cart-line-note';
import { QuantityControl } from '../../features/cart/components/quantity-control';
import { useCart } from '../../features/cart/use-cart';
import { SiteLayout } from '../layouts/site-layout';

/**
 * /cart (docs/rules/screens-buyer.md, Cart and checkout screens): items, quantities (not below 1), line
 * totals, total.
 */
export function CartPage() {
  useDocumentTitle('Shopping Cart');
  const { items, total, count, setQuantity, remove } = useCart();
  const { user } = useAuth();
  const idPrefix = useId();
  const nameIdOf = (item: { id: string }) => `${idPrefix}-name-${item.id}`;
  // The cart is local: a visitor has one too, and checking out asks them to sign in.
  useRefreshCartStock(true);

  return (
    <SiteLayout>
      <PageHeading
        title="Shopping Cart"
        subtitle={count ? `${count} ${count === 1 ? 'item' : 'items'}` : undefined}
      />

      {items.length === 0 ? (
        <Card className="mx-auto max-w-md">
          <CardContent className="flex flex-col items-center gap-4 p-8 text-center">
            <ShoppingBag className="size-12 text-muted-foreground" aria-hidden="true" />
            <p className="text-lg font-medium">Your cart is empty</p>
            <Button asChild>
              <Link href="/">Continue Shopping</Link>
            </Button>
          </CardContent>
        </Card>
      ) : (
        <div className="grid grid-cols-1 gap-8 lg:grid-cols-3">
          <section aria-labelledby="cart-items-heading" className="lg:col-span-2">
            <h2 id="cart-items-heading" className="sr-only">
              Items
            </h2>
            <ul className="flex flex-col gap-4">
              {items.map((item) => (
                // Each line is named by its product's name.
                <li key={item.id} aria-labelledby={nameIdOf(item)}>
                  <Card className="flex flex-col gap-4 p-4 sm:flex-row sm:items-center">
                    <div className="flex min-w-0 flex-1 gap-4">
                      <div className="size-20 shrink-0 overflow-hidden rounded-lg border bg-muted">
                        <ProductImage src={item.imageUrl} alt="" />
                      </div>
                      <div className="min-w-0">
                        <h3 id={nameIdOf(item)} className="font-semibold">
                          <Link href={`/products/${item.id}`} className="hover:underline">
                            {item.name}
                          </Link>
                        </h3>
                        {item.sellerName ? (
                          <p className="truncate text-sm text-muted-foreground">Sold by {item.sellerName}</p>
                        ) : null}
                        <p className="text-sm text-muted-foreground">{formatPrice(item.price)} each</p>
                        <CartLineNote item={item} viewerId={user?.id ?? null} />
                      </div>
                    </div>
                    <div className="flex items-center justify-between gap-4 sm:justify-end">
                      <QuantityControl
                        itemName={item.name}
                        quantity={item.quantity}
                        minimum={1}
                        maximum={maxQuantityOf(item)}
                        onChange={(quantity) => setQuantity(item.id, Math.max(1, quantity))}
                      />
                      <span className="w-24 text-right font-semibold">{formatPrice(lineTotal(item))}</span>
                      <Button
                        variant="ghost"
                        size="icon"
                        className="text-muted-foreground hover:text-destructive"
                        onClick={() => remove(item.id)}
                        aria-label={`Remove ${item.name} from cart`}
                      >
                        <Trash aria-hidden="true" />
                      </Button>
                    </div>
                  </Card>
                </li>
              ))}
            </ul>
          </section>

          <Card className="h-fit lg:sticky lg:top-24">
            <CardHeader>
              <CardTitle as="h2">Order Summary</CardTitle>
            </CardHeader>
            <CardContent className="flex flex-col gap-4">
              <dl className="flex items-center justify-between text-lg font-semibold">
                <dt>Total</dt>
                <dd>{formatPrice(total)}</dd>
              </dl>
              <p className="text-sm text-muted-foreground">Delivery fees are worked out at checkout.</p>
              <Button asChild size="lg">
                <Link href="/checkout">Proceed to Checkout</Link>
              </Button>
              <Button asChild variant="outline">
                <Link href="/">Continue Shopping</Link>
              </Button>
            </CardContent>
          </Card>
        </div>
      )}
    </SiteLayout>
  );
}
