import { useState } from 'react';
import type { Order } from '@domain/orders';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/use-toast';
import { formatPrice } from '../../../lib/format';
import { toastMutationError } from '../../../lib/mutation-errors';
import { useRefundFinishedOrder } from '../api/refund-order';

/**
 * Our addition (docs/decisions/0013-money-movement.md, Transfers and the ledger): an admin refunds
 * a delivered or completed order in full, once, after saying why and confirming; the seller's and
 * the driver's payouts are taken back.
 */
export function RefundOrderButton({ order }: { order: Order }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const refund = useRefundFinishedOrder();
  if (order.status !== 'delivered' && order.status !== 'completed') return null;
  const confirm = () =>
    refund.mutate(
      { orderId: order.id, reason: reason.trim() },
      {
        onSuccess: () => {
          toast({ title: 'Order refunded', description: `${order.orderNumber} was refunded in full.` });
          setOpen(false);
        },
        onError: (error) => {
          toastMutationError(error, 'Failed to refund order', { preferServerMessage: true });
          setOpen(false);
        },
      },
    );
  return (
    <div className="flex flex-col gap-2 rounded-lg border p-4">
      <Label htmlFor={`refund-reason-${order.id}`}>Refund this finished order</Label>
      <Textarea
        id={`refund-reason-${order.id}`}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        maxLength={500}
        placeholder="Why the buyer gets the money back"
        data-testid="input-refund-reason"
      />
      <Button
        variant="destructive"
        className="self-start"
        disabled={reason.trim().length === 0}
        onClick={() => setOpen(true)}
        data-testid="button-refund-order"
      >
        Refund Order
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="Refund this order in full?"
        description={`The buyer gets ${order.total ? formatPrice(order.total) : 'the order total'} back, and the seller's and the driver's payouts for ${order.orderNumber} are taken back. An order is refunded once; this cannot be undone.`}
        cancelLabel="Keep Order"
        confirmLabel="Refund Order"
        pendingLabel="Refunding..."
        isPending={refund.isPending}
        onConfirm={confirm}
        testIds={{
          dialog: 'dialog-refund-order',
          cancel: 'button-keep-order',
          confirm: 'button-confirm-refund',
        }}
      />
    </div>
  );
}
