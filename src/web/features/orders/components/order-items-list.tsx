import { ProductImage } from '../../../components/product-image';
import { formatPrice } from '../../../lib/format';
import { useOrderItems } from '../api/get-order-items';

/** The order's items; prices only for viewers who may see them (docs/rules/screens-buyer.md, Order screens). */
export function OrderItemsList({ orderId, showPrices }: { orderId: string; showPrices: boolean }) {
  const items = useOrderItems(orderId);

  if (items.isLoading)
    return (
      <p role="status" className="text-sm text-muted-foreground">
        Loading items...
      </p>
    );
  if (items.isError || !items.data)
    return (
      <p role="alert" className="text-sm text-destructive">
        Failed to load order items
      </p>
    );
  if (items.data.length === 0) return <p className="text-sm text-muted-foreground">No items found</p>;

  return (
    <ul className="flex flex-col divide-y">
      {items.data.map((item) => (
        <li key={item.id} className="flex items-center gap-3 py-3 first:pt-0 last:pb-0">
          <div className="size-12 shrink-0 overflow-hidden rounded-md border bg-muted">
            <ProductImage src={item.productImageUrl} alt="" />
          </div>
          <div className="flex min-w-0 flex-1 flex-col">
            <span className="break-words text-sm font-medium">{item.productName}</span>
            <span className="text-xs text-muted-foreground">
              Qty {item.quantity}
              {showPrices && item.price ? ` × ${formatPrice(item.price)}` : null}
            </span>
          </div>
          {showPrices && item.lineTotal ? (
            <span className="shrink-0 text-sm font-medium tabular-nums">{formatPrice(item.lineTotal)}</span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
