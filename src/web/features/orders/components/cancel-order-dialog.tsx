import { useState } from 'react';
import type { Order } from '@domain/orders';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { toast } from '../../../components/ui/use-toast';
import { formatPrice } from '../../../lib/format';
import { toastMutationError } from '../../../lib/mutation-errors';
import { useCancelOrder } from '../api/cancel-order';

/**
 * Cancelling asks first (docs/rules/catalog-and-orders.md, Order lifecycle: it cannot be undone): the server
 * refunds the payment of the order in full and puts the stock back.
 */
export function CancelOrderDialog({
  order,
  viewerIsBuyer,
  canCancel,
}: {
  order: Order;
  viewerIsBuyer: boolean;
  /** Shows the Cancel Order button. The dialog itself stays mounted so it can close after cancelling. */
  canCancel: boolean;
}) {
  const [open, setOpen] = useState(false);
  const amount = order.total ? formatPrice(order.total) : null;
  const cancel = useCancelOrder({
    onCancelled: (cancelled) => {
      setOpen(false);
      toast({
        title: 'Order cancelled',
        description: amount
          ? `${cancelled.orderNumber} was cancelled and ${amount} refunded in full.`
          : `${cancelled.orderNumber} was cancelled.`,
      });
    },
    onFailed: (error) => toastMutationError(error, 'Failed to cancel order', { preferServerMessage: true }),
  });
  const refund = amount ? ` and ${viewerIsBuyer ? 'your' : 'its'} payment of ${amount} refunded in full` : '';

  const confirm = () => cancel.mutate(order.id);

  return (
    <>
      {canCancel ? (
        <Button
          variant="outline"
          className="text-destructive hover:text-destructive"
          onClick={() => setOpen(true)}
          data-testid="button-cancel-order"
        >
          Cancel Order
        </Button>
      ) : null}
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="Cancel this order?"
        description={`${order.orderNumber} will be cancelled${refund}. The items go back in stock. This cannot be undone.`}
        cancelLabel="Keep Order"
        confirmLabel="Cancel Order"
        pendingLabel="Cancelling..."
        isPending={cancel.isPending}
        onConfirm={confirm}
      />
    </>
  );
}
