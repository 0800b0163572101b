import { useId } from 'react';
import { Link } from 'wouter';
import { MapPin, MapPinOff } from 'lucide-react';
import { DRIVER_DISTANCE } from '@domain/deliveries';
import { cn } from '../../../lib/utils';

/** "50 miles", and at 500 "Any distance" (docs/rules/deliveries.md, Deliveries: 500 means any). */
export function driverDistanceLabel(miles: number): string {
  return miles >= DRIVER_DISTANCE.max ? 'Any distance' : `${miles} miles`;
}

/** The marks under the slider: 5, 100, 250 and "Any" (docs/rules/screens-shared.md, Constants). */
const MARK_LABEL = (miles: number) => (miles >= DRIVER_DISTANCE.max ? 'Any' : String(miles));
const percentOf = (miles: number) =>
  ((miles - DRIVER_DISTANCE.min) / (DRIVER_DISTANCE.max - DRIVER_DISTANCE.min)) * 100;

/** Where pickup distances are measured from: the driver's primary address, once it has coordinates. */
export type DriverLocationStatus = 'loading' | 'available' | 'unavailable';

/**
 * The distance filter of "Available Orders" (docs/rules/deliveries.md, Deliveries): 5 to 500 miles in
 * steps of 5, 50 by default, marked 5, 100, 250 and Any, with a link to the addresses the distance
 * is measured from.
 */
export function DriverDistanceSlider({
  miles,
  onMilesChange,
  locationStatus,
  className,
}: {
  miles: number;
  onMilesChange: (miles: number) => void;
  locationStatus: DriverLocationStatus;
  className?: string;
}) {
  const sliderId = useId();
  const hintId = useId();
  const isUnavailable = locationStatus === 'unavailable';
  return (
    <div className={cn('rounded-xl border bg-card p-4', className)} data-testid="driver-distance-filter">
      <div className="flex items-baseline justify-between gap-3">
        <label htmlFor={sliderId} className="text-sm font-medium">
          Maximum pickup distance
        </label>
        <output
          htmlFor={sliderId}
          className="text-sm font-semibold tabular-nums"
          data-testid="text-driver-distance"
        >
          {driverDistanceLabel(miles)}
        </output>
      </div>
      <input
        id={sliderId}
        type="range"
        min={DRIVER_DISTANCE.min}
        max={DRIVER_DISTANCE.max}
        step={DRIVER_DISTANCE.step}
        value={miles}
        onChange={(event) => onMilesChange(Number(event.target.value))}
        aria-valuetext={driverDistanceLabel(miles)}
        aria-describedby={hintId}
        className="mt-3 h-2 w-full cursor-pointer accent-primary"
        data-testid="slider-driver-distance"
      />
      <div className="relative mt-1 h-4 text-xs text-muted-foreground" aria-hidden="true">
        {DRIVER_DISTANCE.marks.map((mark, index) => (
          <span
            key={mark}
            className={cn(
              'absolute top-0',
              index === 0
                ? 'left-0'
                : index === DRIVER_DISTANCE.marks.length - 1
                  ? 'right-0'
                  : '-translate-x-1/2',
            )}
            style={
              index === 0 || index === DRIVER_DISTANCE.marks.length - 1
                ? undefined
                : { left: `${percentOf(mark)}%` }
            }
          >
            {MARK_LABEL(mark)}
          </span>
        ))}
      </div>
      <p
        id={hintId}
        className="mt-3 flex flex-wrap items-center gap-x-1.5 gap-y-1 text-xs text-muted-foreground"
      >
        {isUnavailable ? (
          <>
            <MapPinOff className="size-3.5 shrink-0 text-amber-600 dark:text-amber-400" aria-hidden="true" />
            <span>Add a primary address to see how far each pickup is.</span>
          </>
        ) : (
          <>
            <MapPin className="size-3.5 shrink-0" aria-hidden="true" />
            <span>Measured from your primary address.</span>
          </>
        )}
        <Link
          href="/addresses"
          className="font-medium text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          data-testid="link-driver-addresses"
        >
          {isUnavailable ? 'Add an address' : 'Manage addresses'}
        </Link>
      </p>
    </div>
  );
}
