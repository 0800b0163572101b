import { CircleAlert, Info } from 'lucide-react';
import { cn } from '../../../lib/utils';
import { stockNoteOf, type CartItem } from '../cart-store';

/** The words for a seller's own product in the cart (docs/rules/catalog-and-orders.md, Checkout and orders). */
export const OWN_PRODUCT_IN_CART = 'Your own product: remove it to check out';

/**
 * Under a cart line: its stock ("Only 2 in stock" once + has stopped, "Out of Stock", "No longer
 * available"), and for a seller their own product, which they cannot buy.
 */
export function CartLineNote({ item, viewerId }: { item: CartItem; viewerId: string | null }) {
  const isOwn = viewerId !== null && item.sellerId === viewerId;
  const note = isOwn ? { text: OWN_PRODUCT_IN_CART, isProblem: true } : stockNoteOf(item);
  if (!note) return null;
  const Icon = note.isProblem ? CircleAlert : Info;
  return (
    <p
      className={cn(
        'flex items-center gap-1.5 text-xs',
        note.isProblem ? 'font-medium text-destructive' : 'text-muted-foreground',
      )}
    >
      <Icon className="size-3.5 shrink-0" aria-hidden="true" />
      {note.text}
    </p>
  );
}
