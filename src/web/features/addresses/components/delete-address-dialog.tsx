import { useState } from 'react';
import type { Address } from '@domain/addresses';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { toast } from '../../../components/ui/use-toast';
import { useDeleteAddress } from '../api/delete-address';
import { formatAddressOneLine } from './format-address';

/**
 * What deleting leaves (docs/rules/catalog-and-orders.md, Addresses, availability and slots): deleting the
 * primary promotes the newest remaining address; deleting the only one leaves none.
 */
function consequenceOf(address: Address, isOnlyAddress: boolean): string | null {
  if (isOnlyAddress) return ' It is your only address: you will have no saved address until you add one.';
  return address.isPrimary ? ' Your newest remaining address will become your primary address.' : null;
}

/** Asks before deleting an address: deleting cannot be undone. */
export function DeleteAddressDialog({
  address,
  isOnlyAddress,
  onClose,
}: {
  address: Address | null;
  /** The user has no other address: nothing remains to become primary. */
  isOnlyAddress: boolean;
  onClose: () => void;
}) {
  const deleteAddress = useDeleteAddress();
  // The text stays while the dialog animates closed (and the list may have lost the address).
  const [shown, setShown] = useState(address);
  const [shownIsOnly, setShownIsOnly] = useState(isOnlyAddress);
  if (address && (address !== shown || isOnlyAddress !== shownIsOnly)) {
    setShown(address);
    setShownIsOnly(isOnlyAddress);
  }

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
          {shown ? consequenceOf(shown, shownIsOnly) : null}
        </>
      }
      cancelLabel="Cancel"
      confirmLabel="Delete Address"
      pendingLabel="Deleting..."
      isPending={deleteAddress.isPending}
      onConfirm={confirm}
    />
  );
}
