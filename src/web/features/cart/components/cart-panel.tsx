import { useId, type RefObject } from 'react';
import { Link } from 'wouter';
import { ShoppingBag, Trash } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { ProductImage } from '../../../components/product-image';
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetFooter,
  SheetHeader,
  SheetTitle,
} from '../../../components/ui/sheet';
import { formatPrice } from '../../../lib/format';
import { useAuth } from '../../../lib/use-auth';
import { useRefreshCartStock } from '../api/get-cart-stock';
import { maxQuantityOf } from '../cart-store';
import { itemsLabel } from '../items-label';
import { useCart } from '../use-cart';
import { CartLineNote } from './cart-line-note';
import { QuantityControl } from './quantity-control';

/**
 * The "Shopping Cart" panel the header's cart button opens (docs/rules/screens-buyer.md, Cart and
 * checkout screens), loaded after the first render (cart-sheet.tsx). Closing it gives the focus
 * back to the button.
 */
export function CartPanel({
  open,
  onOpenChange,
  triggerRef,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  triggerRef: RefObject<HTMLButtonElement | null>;
}) {
  const { items, total, count, setQuantity, remove } = useCart();
  const { user } = useAuth();
  const close = () => onOpenChange(false);
  const idPrefix = useId();
  const nameIdOf = (item: { id: string }) => `${idPrefix}-name-${item.id}`;
  useRefreshCartStock(open);

  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent
        className="gap-0 p-0"
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          triggerRef.current?.focus();
        }}
      >
        <SheetHeader className="border-b p-6">
          <SheetTitle>Shopping Cart</SheetTitle>
          <SheetDescription>
            {count ? `${itemsLabel(count)} in your cart` : 'Your cart is empty'}
          </SheetDescription>
        </SheetHeader>

        {items.length === 0 ? (
          <div className="flex flex-1 flex-col items-center justify-center gap-4 p-6 text-center">
            <ShoppingBag className="size-12 text-muted-foreground" aria-hidden="true" />
            <Button variant="outline" onClick={close}>
              Continue Shopping
            </Button>
          </div>
        ) : (
          <>
            <ul className="flex-1 divide-y overflow-y-auto px-6">
              {items.map((item) => (
                // Each line is named by its product's name.
                <li key={item.id} className="flex gap-3 py-4" aria-labelledby={nameIdOf(item)}>
                  <div className="size-16 shrink-0 overflow-hidden rounded-md border bg-muted">
                    <ProductImage src={item.imageUrl} alt="" />
                  </div>
                  <div className="flex min-w-0 flex-1 flex-col gap-2">
                    <div className="flex items-start justify-between gap-2">
                      <div className="min-w-0">
                        <p id={nameIdOf(item)} className="truncate font-medium">
                          {item.name}
                        </p>
                        <p className="text-sm text-muted-foreground">{formatPrice(item.price)} each</p>
                      </div>
                      <Button
                        variant="ghost"
                        size="icon"
                        className="size-8 shrink-0 text-muted-foreground hover:text-destructive"
                        onClick={() => remove(item.id)}
                        aria-label={`Remove ${item.name} from cart`}
                      >
                        <Trash aria-hidden="true" />
                      </Button>
                    </div>
                    <QuantityControl
                      itemName={item.name}
                      quantity={item.quantity}
                      maximum={maxQuantityOf(item)}
                      onChange={(quantity) => setQuantity(item.id, quantity)}
                      size="sm"
                    />
                    <CartLineNote item={item} viewerId={user?.id ?? null} />
                  </div>
                </li>
              ))}
            </ul>
            <SheetFooter className="border-t p-6">
              <dl className="flex items-center justify-between text-lg font-semibold">
                <dt>Total</dt>
                <dd>{formatPrice(total)}</dd>
              </dl>
              <Button asChild size="lg">
                <Link href="/checkout" onClick={close}>
                  Proceed to Checkout
                </Link>
              </Button>
              <Button asChild variant="outline">
                <Link href="/cart" onClick={close}>
                  View Cart
                </Link>
              </Button>
            </SheetFooter>
          </>
        )}
      </SheetContent>
    </Sheet>
  );
}
