import { useState } from 'react';
import type { Address } from '@domain/addresses';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/use-toast';
import { useDeleteAddress } from '../api/delete-address';
import { formatAddressOneLine } from './format-address';

/** Asks before deleting an address: deleting cannot be undone. */
export function DeleteAddressDialog({ address, onClose }: { address: Address | null; onClose: () => void }) {
  const deleteAddress = useDeleteAddress();
  // The text stays while the dialog animates closed.
  const [shown, setShown] = useState(address);
  if (address && address !== shown) setShown(address);

  const confirm = () => {
    if (!address) return;
    deleteAddress.mutate(address.id, {
      onSuccess: () => {
        toast({ title: 'Address deleted', description: formatAddressOneLine(address) });
        onClose();
      },
    });
  };

  return (
    <Dialog open={address !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent role="alertdialog" data-testid="dialog-delete-address">
        <DialogHeader>
          <DialogTitle>Delete this address?</DialogTitle>
          <DialogDescription>
            {shown ? `${formatAddressOneLine(shown)} will be removed. This cannot be undone.` : null}
            {shown?.isPrimary ? ' Your newest remaining address will become your primary address.' : null}
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={onClose} data-testid="button-cancel-delete">
            Cancel
          </Button>
          <Button
            variant="destructive"
            onClick={confirm}
            disabled={deleteAddress.isPending}
            data-testid="button-confirm-delete"
          >
            {deleteAddress.isPending ? 'Deleting...' : 'Delete Address'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
