import { useState } from 'react';
import type { Address } from '@domain/addresses';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { AddressForm } from './address-form';

/** What the dialog is open for: a new address, or the address being edited. */
export type AddressDialogTarget = { mode: 'add' } | { mode: 'edit'; address: Address };

/** The add and edit dialogs of the addresses page (docs/rules/screens-buyer.md, Account pages). */
export function AddressFormDialog({
  target,
  onClose,
}: {
  target: AddressDialogTarget | null;
  onClose: () => void;
}) {
  // The form stays while the dialog animates closed; Radix unmounts it once closed.
  const [shown, setShown] = useState(target);
  if (target && target !== shown) setShown(target);
  const address = shown?.mode === 'edit' ? shown.address : undefined;
  return (
    <Dialog open={target !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>{address ? 'Edit Address' : 'Add Address'}</DialogTitle>
          <DialogDescription>
            A US address for deliveries and pickups. Validating it is optional: it checks the ZIP code and
            finds the location.
          </DialogDescription>
        </DialogHeader>
        {shown ? (
          // A new key per address gives each opening a fresh form.
          <AddressForm key={address?.id ?? 'new'} address={address} onSaved={onClose} onCancel={onClose} />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
