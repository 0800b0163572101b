import { Undo2 } from 'lucide-react';
import type { AvailableOrder } from '@domain/deliveries';
import { Button } from '../../../components/ui/button';

/**
 * A declined offer, in its card's place until the list is read again: "Order ORD-… declined" and
 * Undo, which offers it to the driver again (docs/rules/screens-work.md, Driver dashboard).
 */
export function DeclinedOrderRow({
  order,
  onUndo,
  isBusy,
}: {
  order: Pick<AvailableOrder, 'id' | 'orderNumber'>;
  onUndo: () => void;
  /** Undoing is under way. */
  isBusy: boolean;
}) {
  return (
    <div
      role="status"
      className="flex items-center justify-between gap-3 rounded-xl border border-dashed px-4 py-1.5 text-sm text-muted-foreground"
      data-testid={`row-declined-${order.id}`}
    >
      <span>Order {order.orderNumber} declined</span>
      <Button
        variant="ghost"
        className="h-11"
        onClick={onUndo}
        disabled={isBusy}
        aria-label={`Undo declining order ${order.orderNumber}`}
        data-testid={`button-undo-decline-${order.id}`}
      >
        <Undo2 aria-hidden="true" />
        Undo
      </Button>
    </div>
  );
}
