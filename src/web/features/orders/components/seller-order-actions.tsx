import { CheckCheck, PackageCheck, Truck } from 'lucide-react';
import { canTransition, fulfilmentOf, nextStepOf, type OrderStatus } from '@domain/order-status';
import { STATUS_CHANGE_TARGETS, type Order, type OrderStatusChangeBody } from '@domain/orders';
import { Button } from '../../../components/ui/button';
import { toastMutationError } from '../../../lib/mutation-errors';
import { useChangeOrderStatus } from '../api/change-order-status';

type StepTarget = OrderStatusChangeBody['status'];

/**
 * The seller's own steps (docs/rules/catalog-and-orders.md, Order lifecycle): a pickup order is made ready,
 * then picked up; an order the seller delivers is started, then delivered.
 */
export const SELLER_STEP_LABEL: Record<StepTarget, string> = {
  ready_for_pickup: 'Mark Ready for Pickup',
  completed: 'Mark Picked Up',
  'in-transit': 'Start Delivery',
  delivered: 'Mark Delivered',
};

const STEP_ICON: Record<StepTarget, typeof Truck> = {
  ready_for_pickup: PackageCheck,
  completed: CheckCheck,
  'in-transit': Truck,
  delivered: CheckCheck,
};

function isStepTarget(status: OrderStatus): status is StepTarget {
  return (STATUS_CHANGE_TARGETS as readonly OrderStatus[]).includes(status);
}

/** The step the seller may make now, if any. */
export function sellerStepOf(
  order: Pick<Order, 'status' | 'isPickup' | 'sellerDelivery'>,
): StepTarget | null {
  const path = fulfilmentOf(order);
  const next = nextStepOf(path, order.status);
  if (!next || !isStepTarget(next.to) || !canTransition(path, order.status, next.to, 'seller')) return null;
  return next.to;
}

/** The button of the seller's next step on the selected order; nothing when the step is not theirs. */
export function SellerOrderActions({
  order,
  onChanged,
}: {
  order: Order;
  /** After a step is saved (the dashboard refreshes its earnings when an order finishes). */
  onChanged?: (order: Order) => void;
}) {
  const change = useChangeOrderStatus({
    onChanged,
    onFailed: (error) => toastMutationError(error, 'Failed to update status', { appendServerMessage: true }),
  });
  const step = sellerStepOf(order);
  if (!step) return null;
  const Icon = STEP_ICON[step];
  return (
    <Button onClick={() => change.mutate({ orderId: order.id, status: step })} disabled={change.isPending}>
      <Icon aria-hidden="true" />
      {change.isPending ? 'Saving...' : SELLER_STEP_LABEL[step]}
    </Button>
  );
}
