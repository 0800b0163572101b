import { useState } from 'react';
import { MapPin, Plus, RotateCw } from 'lucide-react';
import type { Address } from '@domain/addresses';
import { PageLoading } from '../../../components/page-loading';
import { Button } from '../../../components/ui/button';
import { Card, CardContent } from '../../../components/ui/card';
import { toast } from '../../../components/ui/use-toast';
import { useAddresses } from '../api/get-addresses';
import { useSetPrimaryAddress } from '../api/set-primary-address';
import { AddressCard } from './address-card';
import { DeleteAddressDialog } from './delete-address-dialog';
import { formatAddressOneLine } from './format-address';

export const NO_ADDRESSES_TEXT = 'No addresses yet';

/** The user's addresses, primary first, with loading, error and empty states. */
export function AddressList({ onAdd, onEdit }: { onAdd: () => void; onEdit: (address: Address) => void }) {
  const { data: addresses, isLoading, isError, refetch, isRefetching } = useAddresses();
  const setPrimary = useSetPrimaryAddress();
  const [toDelete, setToDelete] = useState<Address | null>(null);

  if (isLoading) return <PageLoading label="Loading addresses..." />;

  if (isError || !addresses) {
    return (
      <Card role="alert" data-testid="card-addresses-error">
        <CardContent className="flex flex-col items-center gap-4 p-8 text-center">
          <p className="font-medium">Your addresses could not be loaded.</p>
          <Button variant="outline" onClick={() => void refetch()} disabled={isRefetching}>
            <RotateCw aria-hidden="true" />
            Try Again
          </Button>
        </CardContent>
      </Card>
    );
  }

  if (addresses.length === 0) {
    return (
      <Card data-testid="card-no-addresses">
        <CardContent className="flex flex-col items-center gap-4 p-8 text-center sm:p-12">
          <span className="inline-flex size-14 items-center justify-center rounded-full bg-accent text-accent-foreground">
            <MapPin className="size-7" aria-hidden="true" />
          </span>
          <div className="flex flex-col gap-1">
            <h2 className="text-lg font-semibold">{NO_ADDRESSES_TEXT}</h2>
            <p className="max-w-md text-sm text-muted-foreground">
              Add an address for your deliveries and pickups. Your first address becomes your primary one, and
              distances to sellers are measured from it.
            </p>
          </div>
          <Button onClick={onAdd}>
            <Plus aria-hidden="true" />
            Add Address
          </Button>
        </CardContent>
      </Card>
    );
  }

  const makePrimary = (address: Address) =>
    setPrimary.mutate(address.id, {
      onSuccess: () =>
        toast({ title: 'Primary address updated', description: formatAddressOneLine(address) }),
    });

  return (
    <>
      <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Your addresses">
        {addresses.map((address) => (
          <li key={address.id}>
            <AddressCard
              address={address}
              onEdit={() => onEdit(address)}
              onSetPrimary={() => makePrimary(address)}
              onDelete={() => setToDelete(address)}
              isSettingPrimary={setPrimary.isPending}
            />
          </li>
        ))}
      </ul>
      <DeleteAddressDialog
        address={toDelete}
        isOnlyAddress={addresses.length === 1}
        onClose={() => setToDelete(null)}
      />
    </>
  );
}
