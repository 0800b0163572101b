import { useId, useState } from 'react';
import { Route } from 'lucide-react';
import { formatUsd, parseCents, sumCents } from '@domain/money';
import { Button } from '../../../components/ui/button';
import { WeeklyEarningsFigures } from '../../../components/weekly-earnings-figures';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { formatDateTime, formatPrice } from '../../../lib/format';
import { useErrorToast } from '../../../lib/use-error-toast';
import { useDriverEarnings } from '../api/get-driver-earnings';
import { useDriverTrips } from '../api/get-driver-trips';

const TRIPS_PAGE = 20;

/** The last 8 weeks as bars, with the same numbers in a table for screen readers. */
function DriverWeeklyEarnings() {
  const earnings = useDriverEarnings();
  const weeks = earnings.data?.weekly;
  const total = weeks ? formatUsd(sumCents(weeks.map((week) => parseCents(week.earnings)))) : null;
  const weeklyTitleId = useId();
  return (
    <Card role="region" aria-labelledby={weeklyTitleId}>
      <CardHeader className="p-4 sm:p-6">
        <CardTitle id={weeklyTitleId} as="h2">
          Weekly Earnings
        </CardTitle>
        <CardDescription>
          The last 8 weeks, by the week of each delivery
          {total ? (
            <>
              {' · '}
              <span className="font-medium text-foreground" data-testid="text-8-week-total">
                {total}
              </span>{' '}
              in all
            </>
          ) : null}
        </CardDescription>
      </CardHeader>
      <CardContent className="p-4 pt-0 sm:p-6 sm:pt-0">
        <WeeklyEarningsFigures
          weeks={weeks?.map((week) => ({ ...week, count: week.trips }))}
          isError={earnings.isError}
          countLabel="Trips"
          tableTestId="table-driver-weekly-earnings"
        />
      </CardContent>
    </Card>
  );
}

/** Each delivery made: when, from where to where, how far, and what it paid; 20 more at a time. */
function DriverTrips() {
  const [limit, setLimit] = useState(TRIPS_PAGE);
  const trips = useDriverTrips(limit);
  useErrorToast(trips.error, 'Failed to fetch trips');
  const list = trips.data;
  const tripsTitleId = useId();
  return (
    <Card role="region" aria-labelledby={tripsTitleId}>
      <CardHeader className="p-4 sm:p-6">
        <CardTitle id={tripsTitleId} as="h2">
          Trips
        </CardTitle>
        <CardDescription>
          Each delivery you made, latest first, with its distance and what it paid
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 p-4 pt-0 sm:p-6 sm:pt-0">
        {!list ? (
          <p role="status" className="text-sm text-muted-foreground">
            Loading trips...
          </p>
        ) : list.length === 0 ? (
          <p className="text-sm text-muted-foreground">No trips yet: your delivered orders show here.</p>
        ) : (
          <ul className="flex flex-col divide-y">
            {list.map((trip) => (
              <li key={trip.orderId} className="flex items-start justify-between gap-3 py-3">
                <div className="flex min-w-0 flex-col gap-0.5">
                  <span className="font-medium">{trip.orderNumber}</span>
                  <span className="text-xs text-muted-foreground">{formatDateTime(trip.deliveredAt)}</span>
                  <span className="flex items-center gap-1 text-xs text-muted-foreground">
                    <Route className="size-3.5 shrink-0" aria-hidden="true" />
                    <span className="break-words">
                      {trip.pickupCity ?? 'Pickup'} → {trip.deliveryCity ?? 'drop-off'}
                      {trip.distance === null ? '' : ` · ${trip.distance.toFixed(1)} mi`}
                    </span>
                  </span>
                </div>
                <span
                  className="shrink-0 font-semibold tabular-nums"
                  data-testid={`text-trip-earnings-${trip.orderId}`}
                >
                  {formatPrice(trip.earnings)}
                </span>
              </li>
            ))}
          </ul>
        )}
        {list && list.length === limit ? (
          <Button
            variant="outline"
            className="self-start"
            onClick={() => setLimit((shown) => shown + TRIPS_PAGE)}
            disabled={trips.isFetching}
          >
            {trips.isFetching ? 'Loading...' : 'Show more'}
          </Button>
        ) : null}
      </CardContent>
    </Card>
  );
}

/**
 * The Earnings tab's plan of the driver's money (docs/rules/screens-work.md, Driver dashboard): the
 * weekly chart and the trips, under the stat cards.
 */
export function DriverEarningsPanel() {
  return (
    <>
      <DriverWeeklyEarnings />
      <DriverTrips />
    </>
  );
}
