import { useState } from 'react';
import { CalendarClock, MapPin, RotateCw } from 'lucide-react';
import type { PickupAddress } from '@domain/addresses';
import { PICKUP_ADDRESS_NOT_AVAILABLE } from '@domain/address-messages';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Label } from '../../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { formatAddressLine, marketplaceZoneText } from '../../../lib/format';
import { usePickupSlots } from '../api/get-pickup-slots';
import { dayOfSlotLabel, groupSlotsByDay, timeOfSlotLabel } from '../checkout-rules';

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
  const dayId = `pickup-day-${seller.sellerId}`;
  const timeId = `pickup-time-${seller.sellerId}`;
  const groups = slots.data ? groupSlotsByDay(slots.data) : [];
  // A slot chosen earlier that is no longer offered (it is now less than an hour away) is cleared.
  const chosenSlot = value ? slots.data?.find((slot) => slot.datetime === value) : undefined;
  const current = chosenSlot ? chosenSlot.datetime : '';
  // A day, then a time of that day (docs/rules/screens-buyer.md, Cart and checkout screens): the day of
  // the chosen time, else the day picked last, else the first day offered.
  const [pickedDay, setPickedDay] = useState<string | null>(null);
  const day =
    (chosenSlot && dayOfSlotLabel(chosenSlot.label)) ||
    (pickedDay && groups.some((group) => group.day === pickedDay) ? pickedDay : (groups[0]?.day ?? ''));
  const times = groups.find((group) => group.day === day)?.slots ?? [];
  // The zone's abbreviation of the times listed (the chosen one, else the day's first), not of
  // today: across a change of the clocks they differ (CST against CDT).
  const zoneTime = chosenSlot?.datetime ?? times[0]?.datetime;
  const zoneInstant = zoneTime ? new Date(zoneTime) : undefined;

  const chooseDay = (next: string) => {
    setPickedDay(next);
    // A time belongs to its day: another day asks for a time again.
    if (chosenSlot && dayOfSlotLabel(chosenSlot.label) !== next) onChange('');
  };

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
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <div className="grid gap-2">
            <Label htmlFor={dayId}>Pickup day</Label>
            <Select value={day} onValueChange={chooseDay}>
              <SelectTrigger id={dayId}>
                <SelectValue placeholder="Select a day" />
              </SelectTrigger>
              <SelectContent className="max-h-80">
                {groups.map((group) => (
                  <SelectItem key={group.day} value={group.day}>
                    {group.day}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="grid gap-2">
            <Label htmlFor={timeId}>Pickup time</Label>
            <Select value={current} onValueChange={onChange}>
              <SelectTrigger id={timeId}>
                <SelectValue placeholder="Select a time" />
              </SelectTrigger>
              <SelectContent className="max-h-80">
                {times.map((slot) => (
                  <SelectItem key={slot.datetime} value={slot.datetime}>
                    {timeOfSlotLabel(slot.label)}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <p
            className="text-xs text-muted-foreground sm:col-span-2"
            data-testid={`text-pickup-zone-${seller.sellerId}`}
          >
            Times are in {marketplaceZoneText(zoneInstant)}, the marketplace&apos;s time zone.
          </p>
        </div>
      )}
    </li>
  );
}

/**
 * A pickup time per seller, from the seller's slots, with the pickup address
 * (docs/rules/screens-buyer.md, Cart and checkout screens).
 */
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
