import { useState } from 'react';
import { ArrowLeft, Plus } from 'lucide-react';
import { PageHeading } from '../../components/page-heading';
import { Button } from '../../components/ui/button';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useGoBack } from '../../lib/use-go-back';
import { useAddresses } from '../../features/addresses/api/get-addresses';
import {
  AddressFormDialog,
  type AddressDialogTarget,
} from '../../features/addresses/components/address-form-dialog';
import { AddressList } from '../../features/addresses/components/address-list';
import { AppLayout } from '../layouts/app-layout';

/**
 * /addresses (docs/rules/screens-buyer.md, Account pages): address cards, add and edit dialogs with
 * Validate Address, set-primary and delete. Reached from the header, the profile, checkout and the
 * driver's distance filter, so "Back" returns to where the user came from.
 */
export function AddressesPage() {
  useDocumentTitle('My Addresses');
  const goBack = useGoBack();
  const { data: addresses } = useAddresses();
  const [dialog, setDialog] = useState<AddressDialogTarget | null>(null);
  const openAdd = () => setDialog({ mode: 'add' });

  return (
    <AppLayout>
      <Button variant="ghost" onClick={goBack} className="mb-6 -ml-3" data-testid="button-back">
        <ArrowLeft aria-hidden="true" />
        Back
      </Button>
      <PageHeading
        title="My Addresses"
        subtitle="Manage your delivery and pickup addresses"
        actions={
          addresses && addresses.length > 0 ? (
            <Button onClick={openAdd}>
              <Plus aria-hidden="true" />
              Add Address
            </Button>
          ) : null
        }
      />
      <AddressList onAdd={openAdd} onEdit={(address) => setDialog({ mode: 'edit', address })} />
      <AddressFormDialog target={dialog} onClose={() => setDialog(null)} />
    </AppLayout>
  );
}
