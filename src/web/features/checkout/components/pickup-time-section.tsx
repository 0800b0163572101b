import { CalendarClock, MapPin, RotateCw } from 'lucide-react';
import { PICKUP_ADDRESS_NOT_AVAILABLE, type PickupAddress } from '@domain/addresses';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Label } from '../../../components/ui/label';
import {
  Select,
  SelectContent,
  SelectGroup,
  SelectItem,
  SelectLabel,
  SelectTrigger,
  SelectValue,
} from '../../../components/ui/select';
import { formatAddressLine } from '../../../lib/format';
import { usePickupSlots } from '../api/get-pickup-slots';
import { groupSlotsByDay } from '../checkout-rules';

export interface PickupSeller {
  sellerId: string;
  sellerName: string;
  /** From the quote: undefined while it loads, null when the seller has no address. */
  pickupAddress: PickupAddress | null | undefined;
}

function SellerPickupTime({
  seller,
  value,
  onChange,
}: {
  seller: PickupSeller;
  value: string | undefined;
  onChange: (datetime: string) => void;
}) {
  const slots = usePickupSlots(seller.sellerId, true);
  const triggerId = `pickup-time-${seller.sellerId}`;
  const groups = slots.data ? groupSlotsByDay(slots.data) : [];
  // A slot chosen earlier that is no longer offered (it is now less than an hour away) is cleared.
  const current = value && slots.data?.some((slot) => slot.datetime === value) ? value : '';

  return (
    <li
      className="flex flex-col gap-3 rounded-lg border p-4"
      data-testid={`pickup-seller-${seller.sellerId}`}
    >
      <div className="flex flex-col gap-1">
        <h3 className="font-medium">{seller.sellerName}</h3>
        <p className="flex items-start gap-2 text-sm text-muted-foreground">
          <MapPin className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span data-testid={`text-pickup-address-${seller.sellerId}`}>
            {seller.pickupAddress === undefined
              ? 'Loading pickup address...'
              : seller.pickupAddress
                ? formatAddressLine(seller.pickupAddress)
                : PICKUP_ADDRESS_NOT_AVAILABLE}
          </span>
        </p>
      </div>
      {slots.isLoading ? (
        <p role="status" className="text-sm text-muted-foreground">
          Loading pickup times...
        </p>
      ) : slots.isError || !slots.data ? (
        <div role="alert" className="flex flex-wrap items-center gap-3 text-sm">
          <span>Pickup times could not be loaded.</span>
          <Button variant="outline" size="sm" onClick={() => void slots.refetch()}>
            <RotateCw aria-hidden="true" />
            Try Again
          </Button>
        </div>
      ) : slots.data.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid={`text-no-slots-${seller.sellerId}`}>
          This seller has no pickup times in the next 14 days. Please choose delivery instead.
        </p>
      ) : (
        <div className="grid gap-2">
          <Label htmlFor={triggerId}>Pickup time</Label>
          <Select value={current} onValueChange={onChange}>
            <SelectTrigger id={triggerId} data-testid={`select-pickup-time-${seller.sellerId}`}>
              <SelectValue placeholder="Select a pickup time" />
            </SelectTrigger>
            <SelectContent className="max-h-80">
              {groups.map((group) => (
                <SelectGroup key={group.day}>
                  <SelectLabel>{group.day}</SelectLabel>
                  {group.slots.map((slot) => (
                    <SelectItem key={slot.datetime} value={slot.datetime}>
                      {slot.label}
                    </SelectItem>
                  ))}
                </SelectGroup>
              ))}
            </SelectContent>
          </Select>
        </div>
      )}
    </li>
  );
}

/** Spec buyer §2: a pickup time per seller, from the seller's slots, with the pickup address. */
export function PickupTimeSection({
  sellers,
  pickupTimes,
  onChange,
}: {
  sellers: readonly PickupSeller[];
  pickupTimes: Readonly<Record<string, string>>;
  onChange: (sellerId: string, datetime: string) => void;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2" className="flex items-center gap-2">
          <CalendarClock className="size-5" aria-hidden="true" />
          Pickup Time
        </CardTitle>
        <CardDescription>
          {sellers.length > 1
            ? 'Your items come from several sellers: choose a pickup time with each of them.'
            : 'Choose when you will collect your order from the seller.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="flex flex-col gap-4">
          {sellers.map((seller) => (
            <SellerPickupTime
              key={seller.sellerId}
              seller={seller}
              value={pickupTimes[seller.sellerId]}
              onChange={(datetime) => onChange(seller.sellerId, datetime)}
            />
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
