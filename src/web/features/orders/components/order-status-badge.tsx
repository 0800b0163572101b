import { STATUS_BADGE, type OrderStatus } from '@domain/order-status';
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

/** The status as a badge with the spec's labels (docs/product-rules.md, Order lifecycle). */
export function OrderStatusBadge({ status, className }: { status: OrderStatus; className?: string }) {
  return (
    <Badge variant={VARIANT[status]} className={className} data-testid={`badge-status-${status}`}>
      {STATUS_BADGE[status]}
    </Badge>
  );
}
