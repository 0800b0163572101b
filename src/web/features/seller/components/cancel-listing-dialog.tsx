import { useState } from 'react';
import type { SellerProduct } from '@domain/listings';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { toast } from '../../../components/ui/use-toast';
import { toastMutationError } from '../../../lib/mutation-errors';
import { useCancelProduct } from '../api/cancel-product';

/** Spec texts (docs/rules/screens-work.md, Seller screens). */
export const CANCEL_FAILED = 'Failed to cancel product';

/**
 * Asks before cancelling a listing: it leaves the marketplace for good (docs/rules/selling.md, Seller
 * listings). A failure shows the server's message, else "Failed to cancel product".
 */
export function CancelListingDialog({
  product,
  onClose,
}: {
  product: SellerProduct | null;
  onClose: () => void;
}) {
  const cancel = useCancelProduct();
  // The text stays while the dialog animates closed.
  const [shown, setShown] = useState(product);
  if (product && product !== shown) setShown(product);
  const confirm = () => {
    if (!product) return;
    cancel.mutate(product.id, {
      onSuccess: (cancelled) => {
        toast({ title: 'Listing cancelled', description: `${cancelled.name} is no longer for sale.` });
        onClose();
      },
      onError: (error) => {
        toastMutationError(error, CANCEL_FAILED, { preferServerMessage: true });
        onClose();
      },
    });
  };
  return (
    <ConfirmDialog
      open={product !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Cancel this listing?"
      description={`${shown?.name ?? 'This listing'} will no longer be for sale. Orders already placed keep it. This cannot be undone.`}
      cancelLabel="Keep Listing"
      confirmLabel="Cancel Listing"
      pendingLabel="Cancelling..."
      isPending={cancel.isPending}
      onConfirm={confirm}
    />
  );
}
