import { STATUS_BADGE, type OrderStatus } from '@domain/order-status';
import { REFUND_STATE_LABEL, type RefundState } from '@domain/orders';
import { Badge, type BadgeProps } from '../../../components/ui/badge';

const VARIANT: Record<OrderStatus, BadgeProps['variant']> = {
  pending: 'warning',
  assigned: 'secondary',
  'in-transit': 'default',
  ready_for_pickup: 'default',
  delivered: 'success',
  completed: 'success',
  cancelled: 'destructive',
};

/** The status as a badge with the spec's labels (docs/rules/catalog-and-orders.md, Order lifecycle). */
export function OrderStatusBadge({ status, className }: { status: OrderStatus; className?: string }) {
  return (
    <Badge variant={VARIANT[status]} className={className}>
      {STATUS_BADGE[status]}
    </Badge>
  );
}

/**
 * Refunded or Partially refunded, shown to every party, the driver included
 * (docs/decisions/0018-money-against-stripe.md, Refunds); nothing when no money went back.
 */
export function OrderRefundBadge({ state, className }: { state: RefundState; className?: string }) {
  if (state === 'none') return null;
  return (
    <Badge variant={state === 'refunded' ? 'destructive' : 'warning'} className={className}>
      {REFUND_STATE_LABEL[state]}
    </Badge>
  );
}
