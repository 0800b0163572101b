import { useEffect, useId, useState } from 'react';
import { ExternalLink, LocateFixed, Navigation } from 'lucide-react';
import { PICKUP_ADDRESS_NOT_AVAILABLE } from '@domain/address-messages';
import type { Order } from '@domain/orders';
import { Button } from '../../../components/ui/button';
import { fieldControlClasses } from '../../../components/ui/input';
import { cn } from '../../../lib/utils';
import { directionsLink, MAP_APPS, mapAppName, mapAppOf, type MapAppId, type Place } from '../directions';
import { deliveryDestination, formatPickupAddress } from '../order-view';

const MAP_APP_KEY = 'mapApp';

type Position = { latitude: number; longitude: number };
type LocationState =
  | { kind: 'off' }
  | { kind: 'asking' }
  | { kind: 'on'; position: Position }
  | { kind: 'refused'; message: string };

function readMapApp(): MapAppId {
  try {
    return mapAppOf(window.localStorage.getItem(MAP_APP_KEY));
  } catch {
    return 'google';
  }
}

/** The pickup as a point when it has coordinates, else its address; none when neither is known. */
function pickupPlace(order: Order): Place | null {
  const pickup = order.pickupAddress;
  if (pickup && pickup.latitude !== null && pickup.longitude !== null)
    return { latitude: pickup.latitude, longitude: pickup.longitude };
  const text = formatPickupAddress(pickup);
  return text ? { text } : null;
}

/**
 * Directions for the driver of an order under way (docs/rules/screens-work.md, Driver dashboard): to the
 * pickup, then to the drop-off, in the map app the driver picks (kept on this device). The phone's
 * position is asked for only when the driver presses "Use my location", never required: without it
 * each app starts from where the phone is, and the drop-off route of an order not yet picked up
 * starts at the pickup.
 */
export function DirectionsPanel({ order }: { order: Order }) {
  const selectId = useId();
  // The server renders the default; the device's own choice is read once the page runs here.
  const [app, setApp] = useState<MapAppId>('google');
  useEffect(() => setApp(readMapApp()), []);
  const [location, setLocation] = useState<LocationState>({ kind: 'off' });
  const pickup = pickupPlace(order);
  const dropOffText = deliveryDestination(order);
  const here = location.kind === 'on' ? location.position : null;
  const pickedUp = order.status === 'in-transit';

  const choose = (value: string) => {
    const next = mapAppOf(value);
    setApp(next);
    try {
      window.localStorage.setItem(MAP_APP_KEY, next);
    } catch {
      // Private mode: the choice lasts for this page only.
    }
  };

  const askForPosition = () => {
    if (!('geolocation' in navigator)) {
      setLocation({ kind: 'refused', message: 'This browser cannot share your location.' });
      return;
    }
    setLocation({ kind: 'asking' });
    navigator.geolocation.getCurrentPosition(
      ({ coords }) =>
        setLocation({ kind: 'on', position: { latitude: coords.latitude, longitude: coords.longitude } }),
      () =>
        setLocation({
          kind: 'refused',
          message: `Location not shared: ${mapAppName(app)} starts from where your phone is.`,
        }),
      { enableHighAccuracy: false, timeout: 15_000, maximumAge: 60_000 },
    );
  };

  const toPickup = pickup ? directionsLink(app, { from: here, to: pickup }) : null;
  const toDropOff = dropOffText
    ? directionsLink(app, { from: here ?? (pickedUp ? null : pickup), to: { text: dropOffText } })
    : null;
  const newTab = <span className="sr-only"> (opens {mapAppName(app)} in a new tab)</span>;

  return (
    <section aria-labelledby={`${selectId}-heading`} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <h3 id={`${selectId}-heading`} className="flex items-center gap-2 text-sm font-semibold">
          <Navigation className="size-4" aria-hidden="true" />
          Directions
        </h3>
        <div className="flex items-center gap-2">
          <label htmlFor={selectId} className="text-xs text-muted-foreground">
            Map app
          </label>
          <select
            id={selectId}
            value={app}
            onChange={(event) => choose(event.target.value)}
            className={cn(fieldControlClasses, 'h-9 w-auto py-1')}
          >
            {MAP_APPS.map((option) => (
              <option key={option.id} value={option.id}>
                {option.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="grid grid-cols-2 gap-2">
        {toPickup ? (
          <Button asChild variant={pickedUp ? 'outline' : 'default'} className="h-11">
            <a href={toPickup} target="_blank" rel="noopener noreferrer">
              To pickup
              <ExternalLink aria-hidden="true" />
              {newTab}
            </a>
          </Button>
        ) : (
          <p className="text-sm text-muted-foreground">{PICKUP_ADDRESS_NOT_AVAILABLE}</p>
        )}
        {toDropOff ? (
          <Button asChild variant={pickedUp ? 'default' : 'outline'} className="h-11">
            <a href={toDropOff} target="_blank" rel="noopener noreferrer">
              To drop-off
              <ExternalLink aria-hidden="true" />
              {newTab}
            </a>
          </Button>
        ) : null}
      </div>
      <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
        {location.kind === 'on' ? (
          <span>Routes start from your location.</span>
        ) : (
          <>
            <Button
              type="button"
              variant="ghost"
              size="sm"
              onClick={askForPosition}
              disabled={location.kind === 'asking'}
            >
              <LocateFixed aria-hidden="true" />
              {location.kind === 'asking' ? 'Finding you...' : 'Use my location'}
            </Button>
            {location.kind === 'refused' ? <span role="status">{location.message}</span> : null}
          </>
        )}
      </div>
    </section>
  );
}
