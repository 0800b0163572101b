import { Link } from 'wouter';
import { AlertTriangle, RotateCw } from 'lucide-react';
import type { CheckoutOrder, CheckoutProblem, CheckoutQuote } from '@domain/checkout';
import { fulfilmentLabel } from '@domain/order-status';
import { Button } from '../../../components/ui/button';
import { formatPrice } from '../../../lib/format';
import { cn } from '../../../lib/utils';

export interface ProblemActions {
  /** Take the server's current prices into the cart. */
  onAcceptPrices: () => void;
  onRemove: (productId: string) => void;
  onSetQuantity: (productId: string, quantity: number) => void;
}

function SellerOrder({ order, index }: { order: CheckoutOrder; index: number }) {
  return (
    <li className="flex flex-col gap-3 py-4 first:pt-0" data-testid={`summary-order-${order.sellerId}`}>
      <div>
        <h3 className="font-medium">
          <span className="sr-only">Order {index + 1}: </span>
          {order.sellerName}
        </h3>
        <p className="text-xs text-muted-foreground">{fulfilmentLabel(order)}</p>
      </div>
      <ul className="flex flex-col gap-2 text-sm">
        {order.items.map((item) => {
          const changed = item.expectedPrice !== null && item.expectedPrice !== item.price;
          return (
            <li key={item.productId} className="flex items-start justify-between gap-3">
              <span className="min-w-0">
                <span className="break-words">{item.name}</span>{' '}
                <span className="text-muted-foreground">× {item.quantity}</span>
                {changed ? (
                  <span className="block text-xs text-amber-700 dark:text-amber-300">
                    Price changed: <s>{formatPrice(item.expectedPrice ?? '0')}</s> → {formatPrice(item.price)}{' '}
                    each
                  </span>
                ) : null}
              </span>
              <span className="shrink-0 tabular-nums">{formatPrice(item.lineTotal)}</span>
            </li>
          );
        })}
      </ul>
      <dl className="flex flex-col gap-1 text-sm">
        <div className="flex justify-between gap-3 text-muted-foreground">
          <dt>Subtotal</dt>
          <dd className="tabular-nums">{formatPrice(order.productSubtotal)}</dd>
        </div>
        <div className="flex justify-between gap-3 text-muted-foreground">
          <dt>Delivery fee</dt>
          <dd className="tabular-nums" data-testid={`text-delivery-fee-${order.sellerId}`}>
            {formatPrice(order.deliveryFee)}
          </dd>
        </div>
        <div className="flex justify-between gap-3 font-medium">
          <dt>Order total</dt>
          <dd className="tabular-nums">{formatPrice(order.total)}</dd>
        </div>
      </dl>
    </li>
  );
}

function ProblemAction({
  problem,
  quote,
  actions,
}: {
  problem: CheckoutProblem;
  quote: CheckoutQuote;
  actions: ProblemActions;
}) {
  const { productId } = problem;
  if (!productId) return null;
  switch (problem.code) {
    case 'price_changed':
      return null;
    case 'insufficient_stock': {
      const line = quote.orders.flatMap((order) => order.items).find((item) => item.productId === productId);
      if (!line || line.stock <= 0) return null;
      return (
        <Button variant="outline" size="sm" onClick={() => actions.onSetQuantity(productId, line.stock)}>
          Keep {line.stock}
        </Button>
      );
    }
    default:
      return (
        <Button variant="outline" size="sm" onClick={() => actions.onRemove(productId)}>
          Remove
        </Button>
      );
  }
}

/** The item problems of a quote (price changed, unavailable, out of stock), each with its way out. */
export function CheckoutProblems({
  problems,
  quote,
  actions,
}: {
  problems: readonly CheckoutProblem[];
  quote: CheckoutQuote;
  actions: ProblemActions;
}) {
  if (problems.length === 0) return null;
  const priceChanged = problems.some((problem) => problem.code === 'price_changed');
  return (
    <div
      role="alert"
      className="flex flex-col gap-3 rounded-lg border border-destructive/50 bg-destructive/5 p-4 text-sm"
      data-testid="checkout-problems"
    >
      <p className="flex items-center gap-2 font-semibold text-destructive">
        <AlertTriangle className="size-4" aria-hidden="true" />
        Please review your cart
      </p>
      <ul className="flex flex-col gap-2">
        {problems.map((problem, index) => (
          <li
            key={`${problem.code}-${problem.productId ?? index}`}
            className="flex flex-wrap items-center justify-between gap-2"
          >
            <span>{problem.message}</span>
            <ProblemAction problem={problem} quote={quote} actions={actions} />
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        {priceChanged ? (
          <Button size="sm" onClick={actions.onAcceptPrices}>
            Accept New Prices
          </Button>
        ) : null}
        <Button asChild variant="outline" size="sm">
          <Link href="/cart">Review Cart</Link>
        </Button>
      </div>
    </div>
  );
}

/**
 * The Order Summary: the server's pricing, one order per seller, and the totals
 * (docs/rules/screens-buyer.md, Cart and checkout screens).
 */
export function OrderSummary({
  quote,
  isLoading,
  isError,
  isUpdating,
  onRetry,
}: {
  quote: CheckoutQuote | undefined;
  isLoading: boolean;
  isError: boolean;
  isUpdating: boolean;
  onRetry: () => void;
}) {
  if (isLoading && !quote) {
    return (
      <p role="status" className="text-sm text-muted-foreground">
        Calculating your order...
      </p>
    );
  }
  if (!quote) {
    return (
      <div role="alert" className="flex flex-col items-start gap-3 text-sm">
        <span>{isError ? 'Your order could not be priced.' : 'Your order is not priced yet.'}</span>
        <Button variant="outline" size="sm" onClick={onRetry}>
          <RotateCw aria-hidden="true" />
          Try Again
        </Button>
      </div>
    );
  }
  return (
    <div
      className={cn('flex flex-col gap-4 transition-opacity', isUpdating && 'opacity-60')}
      aria-busy={isUpdating}
    >
      {quote.orders.length > 1 ? (
        <p className="text-sm text-muted-foreground">
          Your items come from {quote.orders.length} sellers: they arrive as {quote.orders.length} separate
          orders, paid together.
        </p>
      ) : null}
      <ul className="flex flex-col divide-y">
        {quote.orders.map((order, index) => (
          <SellerOrder key={order.sellerId} order={order} index={index} />
        ))}
      </ul>
      <dl className="flex flex-col gap-2 border-t pt-4 text-sm">
        <div className="flex justify-between gap-3">
          <dt>Subtotal ({quote.itemCount === 1 ? '1 item' : `${quote.itemCount} items`})</dt>
          <dd className="tabular-nums" data-testid="text-subtotal">
            {formatPrice(quote.productSubtotal)}
          </dd>
        </div>
        <div className="flex justify-between gap-3">
          <dt>{quote.orders.length > 1 ? 'Delivery fees' : 'Delivery fee'}</dt>
          <dd className="tabular-nums" data-testid="text-delivery-fee">
            {formatPrice(quote.deliveryFee)}
          </dd>
        </div>
        <div className="flex justify-between gap-3 border-t pt-3 text-lg font-semibold">
          <dt>Total</dt>
          <dd className="tabular-nums" data-testid="text-total">
            {formatPrice(quote.total)}
          </dd>
        </div>
      </dl>
    </div>
  );
}
