import { useState } from 'react';
import type { Address } from '@domain/addresses';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
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
    <ConfirmDialog
      open={address !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Delete this address?"
      description={
        <>
          {shown ? `${formatAddressOneLine(shown)} will be removed. This cannot be undone.` : null}
          {shown?.isPrimary ? ' Your newest remaining address will become your primary address.' : null}
        </>
      }
      cancelLabel="Cancel"
      confirmLabel="Delete Address"
      pendingLabel="Deleting..."
      isPending={deleteAddress.isPending}
      onConfirm={confirm}
      testIds={{
        dialog: 'dialog-delete-address',
        cancel: 'button-cancel-delete',
        confirm: 'button-confirm-delete',
      }}
    />
  );
}
