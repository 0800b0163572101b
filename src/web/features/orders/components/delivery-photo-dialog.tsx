import { useState, type ReactNode } from 'react';
import { Camera, Truck } from 'lucide-react';
import type { Order } from '@domain/orders';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';

/** The uploader is another feature's: the page passes it in (CONTRIBUTING.md, Code layout rules). */
export type PhotoUploader = (props: {
  label: string;
  onUploaded: (objectPath: string) => void;
  disabled: boolean;
}) => ReactNode;

/**
 * The delivery photo a trailer order needs before it goes out (docs/rules/deliveries.md, Deliveries):
 * the driver uploads a photo of the load, sees it, and confirms; confirming saves the photo and
 * then starts the delivery. Confirm stays disabled until there is a photo.
 */
export function DeliveryPhotoDialog({
  order,
  open,
  onOpenChange,
  uploader,
  onConfirm,
  isSaving,
}: {
  order: Order;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  uploader: PhotoUploader;
  onConfirm: (photo: string) => void;
  isSaving: boolean;
}) {
  const [photo, setPhoto] = useState<string | null>(order.deliveryPhotoUrl);
  return (
    <Dialog open={open} onOpenChange={(next) => !isSaving && onOpenChange(next)}>
      <DialogContent>
        <DialogHeader className="text-left">
          <DialogTitle className="flex items-center gap-2">
            <Truck className="size-5" aria-hidden="true" />
            Delivery Photo Required
          </DialogTitle>
          <DialogDescription>
            Order {order.orderNumber} needs a trailer. Take a photo of the load on your trailer before you
            start the delivery; the buyer and the seller will see it.
          </DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-3">
          <div className="flex aspect-video items-center justify-center overflow-hidden rounded-lg border bg-muted">
            {photo ? (
              <img
                src={photo}
                alt={`Delivery photo of ${order.orderNumber}`}
                className="size-full object-cover"
                data-testid="img-delivery-photo-preview"
              />
            ) : (
              <span className="flex flex-col items-center gap-2 text-sm text-muted-foreground">
                <Camera className="size-8" aria-hidden="true" />
                No photo yet
              </span>
            )}
          </div>
          {uploader({
            label: photo ? 'Retake photo' : 'Take or choose a photo',
            onUploaded: setPhoto,
            disabled: isSaving,
          })}
          {photo ? null : (
            <p className="text-xs text-muted-foreground" data-testid="text-photo-needed">
              A delivery photo is needed before confirming.
            </p>
          )}
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={isSaving}>
            Cancel
          </Button>
          <Button onClick={() => photo && onConfirm(photo)} disabled={!photo || isSaving}>
            <Truck aria-hidden="true" />
            {isSaving ? 'Starting...' : 'Confirm & Start Delivery'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
