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

/** An order's status with the badge labels (docs/rules/catalog-and-orders.md, Order lifecycle). */
export function OrderStatusLabel({ status }: { status: OrderStatus }) {
  return <Badge variant={VARIANT[status]}>{STATUS_BADGE[status]}</Badge>;
}
