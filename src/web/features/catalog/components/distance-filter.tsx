import { useId } from 'react';
import { Link } from 'wouter';
import { LogIn, MapPin, MapPinOff, Navigation } from 'lucide-react';
import { ANY_DISTANCE_MILES, MIN_DISTANCE_MILES } from '@domain/catalog-distance';
import { Button } from '../../../components/ui/button';
import { signIn } from '../../../lib/navigation';
import { cn } from '../../../lib/utils';

/**
 * "1 mile", "25 miles", and at 500 "Any distance" (docs/rules/catalog-and-orders.md, Catalog and distance:
 * 500 means any).
 */
export function distanceLabel(miles: number): string {
  if (miles >= ANY_DISTANCE_MILES) return 'Any distance';
  return miles === 1 ? '1 mile' : `${miles} miles`;
}

/**
 * Where the buyer's distance is measured from: their primary address, once it has coordinates. A visitor has
 * none: the distance filter needs a sign-in (docs/rules/catalog-and-orders.md, Catalog and distance).
 */
export type LocationStatus = 'loading' | 'available' | 'unavailable' | 'signed-out';

interface DistanceFilterProps {
  locationStatus: LocationStatus;
  isOn: boolean;
  onToggle: (isOn: boolean) => void;
  miles: number;
  onMilesChange: (miles: number) => void;
  className?: string;
}

/**
 * The signed-in buyer's distance filter (docs/rules/screens-buyer.md, Catalog screens;
 * docs/rules/catalog-and-orders.md, Catalog and distance): a switch, then a slider from 1 to 500 miles in
 * steps of 1 whose value is shown as miles, or "Any distance" at 500. Without a primary address that has
 * coordinates there is nothing to measure from (docs/rules/catalog-and-orders.md, Catalog and distance), so
 * the panel says "Location not available" and links to the addresses page instead.
 */
export function DistanceFilter({
  locationStatus,
  isOn,
  onToggle,
  miles,
  onMilesChange,
  className,
}: DistanceFilterProps) {
  const switchId = useId();
  const sliderId = useId();
  const outputId = useId();
  const hintId = useId();

  if (locationStatus === 'signed-out') {
    return (
      <div
        className={cn(
          'flex flex-col gap-3 rounded-xl border bg-card p-4 sm:flex-row sm:items-center',
          className,
        )}
        data-testid="distance-filter"
      >
        <div className="flex min-w-0 flex-1 items-start gap-3">
          <Navigation className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
          <div className="min-w-0">
            <p className="font-medium">Filter by distance</p>
            <p className="text-sm text-muted-foreground" data-testid="text-distance-sign-in">
              Sign in to see how far each seller is and show only products nearby.
            </p>
          </div>
        </div>
        <Button
          variant="outline"
          size="sm"
          className="self-start sm:self-center"
          onClick={() => signIn({ returnTo: `${window.location.pathname}${window.location.search}` })}
        >
          <LogIn aria-hidden="true" />
          Sign In
        </Button>
      </div>
    );
  }

  if (locationStatus === 'unavailable') {
    return (
      <div
        className={cn(
          'flex flex-col gap-3 rounded-xl border bg-card p-4 sm:flex-row sm:items-center',
          className,
        )}
        data-testid="distance-filter"
      >
        <div className="flex min-w-0 flex-1 items-start gap-3">
          <MapPinOff className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
          <div className="min-w-0">
            <p className="font-medium" data-testid="text-location-unavailable">
              Location not available
            </p>
            <p className="text-sm text-muted-foreground">
              Add a primary address to filter products by distance.
            </p>
          </div>
        </div>
        <Button asChild variant="outline" size="sm" className="self-start sm:self-center">
          <Link href="/addresses">
            <MapPin aria-hidden="true" />
            Add an address
          </Link>
        </Button>
      </div>
    );
  }

  const isDisabled = locationStatus === 'loading';
  return (
    <div className={cn('rounded-xl border bg-card p-4', className)} data-testid="distance-filter">
      <div className="flex items-center justify-between gap-3">
        <label htmlFor={switchId} className="flex min-w-0 items-center gap-2 font-medium">
          <Navigation className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          Filter by distance
        </label>
        <button
          id={switchId}
          type="button"
          role="switch"
          aria-checked={isOn}
          disabled={isDisabled}
          onClick={() => onToggle(!isOn)}
          className={cn(
            'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full border-2 border-transparent transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background disabled:cursor-not-allowed disabled:opacity-50',
            isOn ? 'bg-primary' : 'bg-input',
          )}
        >
          <span
            aria-hidden="true"
            className={cn(
              'block size-5 rounded-full bg-background shadow-sm transition-transform',
              isOn ? 'translate-x-5' : 'translate-x-0',
            )}
          />
        </button>
      </div>

      {isOn ? (
        <div className="mt-4">
          <div className="mb-2 flex items-baseline justify-between gap-3 text-sm">
            <label htmlFor={sliderId} className="text-muted-foreground">
              Maximum distance
            </label>
            <output
              id={outputId}
              htmlFor={sliderId}
              className="font-semibold tabular-nums"
              data-testid="text-distance-value"
            >
              {distanceLabel(miles)}
            </output>
          </div>
          <input
            id={sliderId}
            type="range"
            min={MIN_DISTANCE_MILES}
            max={ANY_DISTANCE_MILES}
            step={1}
            value={miles}
            onChange={(event) => onMilesChange(Number(event.target.value))}
            aria-valuetext={distanceLabel(miles)}
            aria-describedby={hintId}
            className="h-2 w-full cursor-pointer accent-primary"
          />
          <div id={hintId} className="mt-1 flex justify-between text-xs text-muted-foreground">
            <span>{distanceLabel(MIN_DISTANCE_MILES)}</span>
            <span>{distanceLabel(ANY_DISTANCE_MILES)}</span>
          </div>
        </div>
      ) : (
        <p className="mt-1 text-sm text-muted-foreground">
          See how far each seller is, and show only products nearby.
        </p>
      )}
    </div>
  );
}
