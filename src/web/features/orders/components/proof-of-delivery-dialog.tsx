import { useState } from 'react';
import { Camera, CheckCheck, MapPin } from 'lucide-react';
import {
  DELIVERY_CODE_PATTERN,
  proofNeededFor,
  type DeliverBody,
  type DeliveryProofSettings,
} from '@domain/delivery-proof';
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
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import type { PhotoUploader } from './delivery-photo-dialog';

type Place = { latitude: number; longitude: number };

/**
 * "Proof of Delivery" (docs/rules/screens-work.md, Driver dashboard): the drop-off photo, the buyer's
 * 4-digit code when the marketplace asks for it, and the place only when the driver taps "Add my
 * location" (never required). Confirm Delivery stays disabled until the required proof is there.
 */
export function ProofOfDeliveryDialog({
  order,
  settings,
  open,
  onOpenChange,
  uploader,
  onConfirm,
  isSaving,
}: {
  order: Order;
  settings: DeliveryProofSettings | undefined;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  uploader: PhotoUploader;
  onConfirm: (body: DeliverBody) => void;
  isSaving: boolean;
}) {
  const [photo, setPhoto] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [place, setPlace] = useState<Place | null>(null);
  const [placeNote, setPlaceNote] = useState<string | null>(null);
  const needed = settings ? proofNeededFor(settings, order) : null;
  const codeOk = DELIVERY_CODE_PATTERN.test(code);
  const isReady = needed !== null && (!needed.photo || photo !== null) && (!needed.code || codeOk);

  const addLocation = () => {
    if (!('geolocation' in navigator)) {
      setPlaceNote('Your device cannot share its location.');
      return;
    }
    setPlaceNote('Finding your location...');
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setPlace({ latitude: position.coords.latitude, longitude: position.coords.longitude });
        setPlaceNote(null);
      },
      () => setPlaceNote('Your location could not be read; you can deliver without it.'),
      { enableHighAccuracy: true, timeout: 15_000 },
    );
  };

  const confirm = () => {
    if (!isReady) return;
    onConfirm({
      ...(photo ? { dropOffPhotoUrl: photo } : {}),
      ...(needed?.code ? { code } : {}),
      ...(place ?? {}),
    });
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !isSaving && onOpenChange(next)}>
      <DialogContent>
        <DialogHeader className="text-left">
          <DialogTitle className="flex items-center gap-2">
            <CheckCheck className="size-5" aria-hidden="true" />
            Proof of Delivery
          </DialogTitle>
          <DialogDescription>
            Order {order.orderNumber}: show that it reached the buyer. The buyer, the seller and the
            marketplace will see the proof.
          </DialogDescription>
        </DialogHeader>
        {needed === null ? (
          <p className="text-sm text-muted-foreground">Loading what this delivery needs...</p>
        ) : (
          <div className="flex flex-col gap-4">
            <div className="flex flex-col gap-2">
              <span className="text-sm font-medium">Drop-off photo{needed.photo ? '' : ' (optional)'}</span>
              <div className="flex aspect-video items-center justify-center overflow-hidden rounded-lg border bg-muted">
                {photo ? (
                  <img
                    src={photo}
                    alt={`Drop-off photo of ${order.orderNumber}`}
                    className="size-full object-cover"
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
            </div>
            {needed.code ? (
              <div className="flex flex-col gap-2">
                <Label htmlFor="delivery-code">Delivery code from the buyer</Label>
                <Input
                  id="delivery-code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={4}
                  pattern="[0-9]{4}"
                  placeholder="4 digits"
                  value={code}
                  onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 4))}
                  disabled={isSaving}
                />
              </div>
            ) : null}
            <div className="flex flex-col gap-1">
              <Button type="button" variant="outline" onClick={addLocation} disabled={isSaving}>
                <MapPin aria-hidden="true" />
                {place ? 'Location added' : 'Add my location'}
              </Button>
              {placeNote ? <p className="text-xs text-muted-foreground">{placeNote}</p> : null}
            </div>
            {isReady ? null : (
              <p className="text-xs text-muted-foreground">
                {needed.photo && needed.code
                  ? 'A drop-off photo and the 4-digit code are needed before confirming.'
                  : needed.photo
                    ? 'A drop-off photo is needed before confirming.'
                    : 'The 4-digit code is needed before confirming.'}
              </p>
            )}
          </div>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={isSaving}>
            Cancel
          </Button>
          <Button onClick={confirm} disabled={!isReady || isSaving}>
            <CheckCheck aria-hidden="true" />
            {isSaving ? 'Saving...' : 'Confirm Delivery'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
