import { sumCents, formatUsd, parseCents } from '@domain/money';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { WeeklyEarningsFigures } from '../../../components/weekly-earnings-figures';
import { useWeeklyEarnings } from '../api/get-earnings';

/**
 * Earnings per week over the last 12 weeks (docs/rules/selling.md, Seller earnings), counted in the
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
        <WeeklyEarningsFigures
          weeks={weeks?.map((week) => ({ ...week, count: week.orderCount }))}
          isError={weekly.isError}
          countLabel="Orders"
          tableTestId="table-weekly-earnings"
        />
      </CardContent>
    </Card>
  );
}
