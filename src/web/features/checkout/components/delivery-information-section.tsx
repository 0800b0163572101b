import { Link } from 'wouter';
import { MapPin, RotateCw, Settings } from 'lucide-react';
import type { Address } from '@domain/addresses';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { cn } from '../../../lib/utils';

export const DELIVERY_NOTES_MAX = 500;

interface DeliveryInformationSectionProps {
  addresses: readonly Address[] | undefined;
  isLoading: boolean;
  isError: boolean;
  onRetry: () => void;
  selectedId: string | null;
  onSelect: (id: string) => void;
  notes: string;
  onNotesChange: (notes: string) => void;
}

/**
 * The buyer's addresses (primary preselected), Manage Addresses, delivery notes
 * (docs/rules/screens-buyer.md, Cart and checkout screens).
 */
export function DeliveryInformationSection({
  addresses,
  isLoading,
  isError,
  onRetry,
  selectedId,
  onSelect,
  notes,
  onNotesChange,
}: DeliveryInformationSectionProps) {
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="flex flex-col gap-1.5">
          <CardTitle as="h2" id="delivery-information-heading">
            Delivery Information
          </CardTitle>
          <CardDescription>Where should we deliver your order?</CardDescription>
        </div>
        <Button asChild variant="outline" size="sm">
          <Link href="/addresses">
            <Settings aria-hidden="true" />
            Manage Addresses
          </Link>
        </Button>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        {isLoading ? (
          <p role="status" className="text-sm text-muted-foreground">
            Loading addresses...
          </p>
        ) : isError || !addresses ? (
          <div role="alert" className="flex flex-wrap items-center gap-3 text-sm">
            <span>Your addresses could not be loaded.</span>
            <Button variant="outline" size="sm" onClick={onRetry}>
              <RotateCw aria-hidden="true" />
              Try Again
            </Button>
          </div>
        ) : addresses.length === 0 ? (
          <div className="flex flex-col items-start gap-3 rounded-lg border border-dashed p-4 text-sm">
            <p className="flex items-center gap-2 font-medium">
              <MapPin className="size-4" aria-hidden="true" />
              You have no saved addresses yet.
            </p>
            <p className="text-muted-foreground">Add a delivery address to continue.</p>
            <Button asChild size="sm">
              <Link href="/addresses">Add Address</Link>
            </Button>
          </div>
        ) : (
          <fieldset className="grid gap-3">
            <legend className="sr-only">Delivery address</legend>
            {addresses.map((address) => {
              const id = `delivery-address-${address.id}`;
              const checked = address.id === selectedId;
              return (
                <label
                  key={address.id}
                  htmlFor={id}
                  className={cn(
                    'flex cursor-pointer items-start gap-3 rounded-lg border p-4 transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
                    checked ? 'border-primary bg-accent/60' : 'hover:bg-accent/40',
                  )}
                >
                  <input
                    type="radio"
                    id={id}
                    name="delivery-address"
                    value={address.id}
                    checked={checked}
                    onChange={() => onSelect(address.id)}
                    className="mt-1 size-4 accent-[var(--primary)]"
                  />
                  <span className="flex min-w-0 flex-col gap-0.5 text-sm">
                    <span className="flex flex-wrap items-center gap-2 font-medium">
                      {address.addressLine1}
                      {address.isPrimary ? <Badge variant="success">Primary</Badge> : null}
                    </span>
                    {address.addressLine2 ? (
                      <span className="text-muted-foreground">{address.addressLine2}</span>
                    ) : null}
                    <span className="text-muted-foreground">
                      {address.city}, {address.state} {address.zipCode}
                    </span>
                  </span>
                </label>
              );
            })}
          </fieldset>
        )}

        <div className="grid gap-2">
          <Label htmlFor="delivery-notes">
            Delivery notes <span className="font-normal text-muted-foreground">(optional)</span>
          </Label>
          <Textarea
            id="delivery-notes"
            value={notes}
            maxLength={DELIVERY_NOTES_MAX}
            onChange={(event) => onNotesChange(event.target.value)}
            placeholder="Gate code, where to leave the package, ..."
            className="min-h-20"
            aria-describedby="delivery-notes-hint"
          />
          <p id="delivery-notes-hint" className="text-xs text-muted-foreground">
            {notes.length}/{DELIVERY_NOTES_MAX} characters
          </p>
        </div>
      </CardContent>
    </Card>
  );
}
