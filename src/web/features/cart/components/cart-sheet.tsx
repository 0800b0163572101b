import { lazy, useRef, useState } from 'react';
import { ShoppingCart } from 'lucide-react';
import { OptionalPart } from '../../../components/error-boundary';
import { Button } from '../../../components/ui/button';
import { WithTooltip } from '../../../components/ui/tooltip';
import { dismissToasts } from '../../../components/ui/use-toast';
import { useHasHydrated } from '../../../lib/use-has-hydrated';
import { cn } from '../../../lib/utils';
import { itemsLabel } from '../items-label';
import { useCart } from '../use-cart';

/** The panel (Radix dialog and the cart's lines) is not part of the first load (docs/decisions/0014-first-load.md). */
const CartPanel = lazy(async () => ({ default: (await import('./cart-panel')).CartPanel }));

/**
 * The header's cart button and the "Shopping Cart" panel it opens
 * (docs/rules/screens-buyer.md, Cart and checkout screens).
 */
export function CartSheet() {
  const { count } = useCart();
  const [open, setOpen] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  // The count comes from local storage and the panel loads later: neither is in the server's HTML
  // (docs/decisions/0014-first-load.md, The first screen in the HTML).
  const hasHydrated = useHasHydrated();
  const onOpenChange = (next: boolean) => {
    // An open sheet is modal: a toast over it would hide its buttons and could not be closed
    // (docs/rules/screens-shared.md, Client behaviour).
    if (next) dismissToasts();
    setOpen(next);
  };

  return (
    <>
      <WithTooltip label="Shopping cart">
        <Button
          ref={triggerRef}
          variant="ghost"
          size="icon"
          className="relative"
          aria-label={`Shopping cart, ${itemsLabel(count)}`}
          aria-haspopup="dialog"
          aria-expanded={open}
          data-state={open ? 'open' : 'closed'}
          onClick={() => onOpenChange(true)}
        >
          <ShoppingCart aria-hidden="true" />
          <span
            className={cn(
              'absolute -right-0.5 -top-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-primary px-1 text-xs font-bold text-primary-foreground',
              count === 0 && 'sr-only',
            )}
          >
            {count}
          </span>
        </Button>
      </WithTooltip>
      {hasHydrated ? (
        <OptionalPart>
          <CartPanel open={open} onOpenChange={onOpenChange} triggerRef={triggerRef} />
        </OptionalPart>
      ) : null}
    </>
  );
}
