import { useState } from 'react';
import { Undo2 } from 'lucide-react';
import { canBeHandedBack } from '@domain/order-status';
import type { Order } from '@domain/orders';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { toast } from '../../../components/ui/use-toast';
import { toastMutationError } from '../../../lib/mutation-errors';
import { useHandBackOrder } from '../api/hand-back-order';

/**
 * Whether the viewer may hand the order back: its driver, while it is assigned (before Start
 * Delivery; docs/rules/deliveries.md, Deliveries). The server decides again.
 */
export function canHandBack(order: Pick<Order, 'status' | 'driverId'>, viewerId: string): boolean {
  return canBeHandedBack(order.status) && order.driverId === viewerId;
}

/**
 * Hand Back, for the assigned driver before Start Delivery (docs/rules/screens-work.md, Driver
 * dashboard): asks first, then the order leaves My Deliveries and is offered to other drivers.
 * Toasts: "Order handed back", "Failed to hand back order".
 */
export function HandBackDialog({ order }: { order: Pick<Order, 'id' | 'orderNumber'> }) {
  const [open, setOpen] = useState(false);
  const handBack = useHandBackOrder({
    onHandedBack: () => {
      setOpen(false);
      toast({
        title: 'Order handed back',
        description: `${order.orderNumber} is offered to other drivers.`,
      });
    },
    onFailed: (error) =>
      toastMutationError(error, 'Failed to hand back order', { appendServerMessage: true }),
  });
  return (
    <>
      <Button
        variant="outline"
        size="lg"
        className="w-full"
        onClick={() => setOpen(true)}
        data-testid={`button-hand-back-${order.id}`}
      >
        <Undo2 aria-hidden="true" />
        Hand Back
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="Hand this order back?"
        description="It will be offered to other drivers."
        cancelLabel="Cancel"
        confirmLabel="Hand Back"
        pendingLabel="Handing back..."
        isPending={handBack.isPending}
        onConfirm={() => handBack.mutate(order.id)}
      />
    </>
  );
}
