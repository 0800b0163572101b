import { useState } from 'react';
import { CheckCheck, Truck } from 'lucide-react';
import type { Order } from '@domain/orders';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/use-toast';
import { toastMutationError } from '../../../lib/mutation-errors';
import { useChangeOrderStatus } from '../api/change-order-status';
import { useDeliverOrder } from '../api/deliver-order';
import { useDeliveryProofSettings } from '../api/get-delivery-proof-settings';
import { useSetDeliveryPhoto } from '../api/set-delivery-photo';
import { DeliveryPhotoDialog, type PhotoUploader } from './delivery-photo-dialog';
import { ProofOfDeliveryDialog } from './proof-of-delivery-dialog';

/** The driver's next step on an order, if any (docs/rules/catalog-and-orders.md, Order lifecycle). */
export function driverStepOf(order: Pick<Order, 'status' | 'isPickup' | 'sellerDelivery'>) {
  if (order.isPickup || order.sellerDelivery) return null;
  if (order.status === 'assigned') return 'in-transit' as const;
  if (order.status === 'in-transit') return 'delivered' as const;
  return null;
}

/** A trailer order goes out only with its delivery photo (docs/rules/deliveries.md, Deliveries). */
export function needsPhotoFirst(order: Pick<Order, 'status' | 'requiresTrailer' | 'deliveryPhotoUrl'>) {
  return order.status === 'assigned' && order.requiresTrailer && !order.deliveryPhotoUrl;
}

/**
 * Start Delivery (assigned → in transit) or Mark Delivered (in transit → delivered) for the
 * order's assigned driver (docs/rules/deliveries.md, Deliveries). A trailer order without its photo
 * opens the delivery photo dialog first; Mark Delivered opens "Proof of Delivery". Toasts: "Failed
 * to start delivery", "Failed to update status".
 */
export function DriverOrderActions({
  order,
  uploader,
  onChanged,
}: {
  order: Order;
  uploader: PhotoUploader;
  /** After a step is saved (the dashboard refreshes its earnings when an order is delivered). */
  onChanged?: (order: Order) => void;
}) {
  const [isPhotoOpen, setPhotoOpen] = useState(false);
  const [isProofOpen, setProofOpen] = useState(false);
  const step = driverStepOf(order);
  const proofSettings = useDeliveryProofSettings(step === 'delivered');
  const announce = (changed: Order) => {
    setPhotoOpen(false);
    setProofOpen(false);
    toast({
      title: changed.status === 'delivered' ? 'Order delivered' : 'Delivery started',
      description:
        changed.status === 'delivered'
          ? `${changed.orderNumber} is delivered. Thank you!`
          : `${changed.orderNumber} is out for delivery.`,
    });
    onChanged?.(changed);
  };
  const deliver = useDeliverOrder({
    onDelivered: announce,
    onFailed: (error) => toastMutationError(error, 'Failed to update status', { appendServerMessage: true }),
  });
  const change = useChangeOrderStatus({
    onChanged: announce,
    onFailed: (error) =>
      toastMutationError(
        error,
        step === 'in-transit' ? 'Failed to start delivery' : 'Failed to update status',
        {
          appendServerMessage: true,
        },
      ),
  });
  const savePhoto = useSetDeliveryPhoto();
  if (!step) return null;

  const start = () => {
    if (step === 'delivered') setProofOpen(true);
    else if (needsPhotoFirst(order)) setPhotoOpen(true);
    else change.mutate({ orderId: order.id, status: step });
  };

  const confirmPhoto = (photo: string) =>
    savePhoto.mutate(
      { orderId: order.id, photo },
      {
        onSuccess: () => change.mutate({ orderId: order.id, status: 'in-transit' }),
        onError: (error) =>
          toastMutationError(error, 'Failed to start delivery', { appendServerMessage: true }),
      },
    );

  const isBusy = change.isPending || savePhoto.isPending || deliver.isPending;
  return (
    <>
      {step === 'in-transit' ? (
        <Button size="lg" className="w-full" onClick={start} disabled={isBusy}>
          <Truck aria-hidden="true" />
          {change.isPending ? 'Starting...' : 'Start Delivery'}
        </Button>
      ) : (
        <Button size="lg" className="w-full" onClick={start} disabled={isBusy}>
          <CheckCheck aria-hidden="true" />
          {deliver.isPending ? 'Saving...' : 'Mark Delivered'}
        </Button>
      )}
      {step === 'delivered' ? (
        <ProofOfDeliveryDialog
          key={`${order.id}-proof-${String(isProofOpen)}`}
          order={order}
          settings={proofSettings.data}
          open={isProofOpen}
          onOpenChange={setProofOpen}
          uploader={uploader}
          onConfirm={(body) => deliver.mutate({ orderId: order.id, body })}
          isSaving={deliver.isPending}
        />
      ) : null}
      {order.requiresTrailer ? (
        <DeliveryPhotoDialog
          key={`${order.id}-${String(isPhotoOpen)}`}
          order={order}
          open={isPhotoOpen}
          onOpenChange={setPhotoOpen}
          uploader={uploader}
          onConfirm={confirmPhoto}
          isSaving={isBusy}
        />
      ) : null}
    </>
  );
}
