import { lazy, Suspense } from 'react';
import { sumCents, formatUsd, parseCents } from '@domain/money';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { useWeeklyEarnings } from '../api/get-earnings';
import { formatWeek } from '../../../lib/format-week';
import { formatAmount } from '../format';

/** The chart library comes with the chart, not with the dashboard. */
const EarningsChart = lazy(() =>
  import('../../../components/weekly-earnings-chart').then((module) => ({
    default: module.WeeklyEarningsChart,
  })),
);

function ChartPlaceholder({ text }: { text: string }) {
  return (
    <div className="flex h-60 items-center justify-center rounded-lg border border-dashed text-sm text-muted-foreground">
      {text}
    </div>
  );
}

/**
 * Earnings per week over the last 12 weeks (docs/product-rules.md, Seller earnings), counted in the
 * week each order was delivered or picked up.
 */
export function EarningsChartCard() {
  const weekly = useWeeklyEarnings();
  const weeks = weekly.data;
  const total = weeks ? formatUsd(sumCents(weeks.map((week) => parseCents(week.earnings)))) : null;
  return (
    <Card data-testid="card-weekly-earnings">
      <CardHeader>
        <CardTitle as="h2">Weekly Earnings</CardTitle>
        <CardDescription>
          The last 12 weeks, by the week each order was delivered or picked up
          {total ? (
            <>
              {' · '}
              <span className="font-medium text-foreground" data-testid="text-12-week-total">
                {total}
              </span>{' '}
              in all
            </>
          ) : null}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {weekly.isError ? (
          <p role="alert" className="text-sm text-destructive">
            Your weekly earnings could not be loaded.
          </p>
        ) : !weeks ? (
          <ChartPlaceholder text="Loading earnings..." />
        ) : (
          <>
            <Suspense fallback={<ChartPlaceholder text="Loading chart..." />}>
              <EarningsChart weeks={weeks} />
            </Suspense>
            <table className="sr-only" data-testid="table-weekly-earnings">
              <caption>Earnings per week, oldest first</caption>
              <thead>
                <tr>
                  <th scope="col">Week of</th>
                  <th scope="col">Earnings</th>
                  <th scope="col">Orders</th>
                </tr>
              </thead>
              <tbody>
                {weeks.map((week) => (
                  <tr key={week.weekStart} data-week={week.weekStart}>
                    <th scope="row">{formatWeek(week.weekStart)}</th>
                    <td>{formatAmount(week.earnings)}</td>
                    <td>{week.orderCount}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </CardContent>
    </Card>
  );
}
