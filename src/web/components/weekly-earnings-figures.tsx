import { lazy } from 'react';
import { formatPrice } from '../lib/format';
import { formatWeek } from '../lib/format-week';
import { useNearViewport } from '../lib/use-near-viewport';
import { Suspense } from './suspense';

/** The chart library comes with the chart, not with the dashboard that shows it. */
const WeeklyEarningsChart = lazy(() =>
  import('./weekly-earnings-chart').then((module) => ({ default: module.WeeklyEarningsChart })),
);

/** A week of earnings: its Monday (YYYY-MM-DD), the amount ("12.50") and how many orders or trips. */
export interface EarningsWeekFigures {
  weekStart: string;
  earnings: string;
  count: number;
}

function ChartPlaceholder({ text }: { text: string }) {
  return (
    <div className="flex h-60 items-center justify-center rounded-lg border border-dashed text-sm text-muted-foreground">
      {text}
    </div>
  );
}

/** The chart's code and drawing wait until the card is scrolled near: below a phone's first screen. */
function ChartWhenNear({ weeks }: { weeks: readonly EarningsWeekFigures[] }) {
  const [ref, near] = useNearViewport<HTMLDivElement>();
  const placeholder = <ChartPlaceholder text="Loading chart..." />;
  return (
    <div ref={ref}>
      {near ? (
        <Suspense fallback={placeholder}>
          <WeeklyEarningsChart weeks={weeks} />
        </Suspense>
      ) : (
        placeholder
      )}
    </div>
  );
}

/**
 * The body of a weekly earnings card, the seller's and the driver's: the bars for sighted users
 * and the same numbers in a table for screen readers; loading and failure said in words.
 */
export function WeeklyEarningsFigures({
  weeks,
  isError,
  countLabel,
  tableTestId,
}: {
  weeks: readonly EarningsWeekFigures[] | undefined;
  isError: boolean;
  /** The third column's heading: "Orders", "Trips". */
  countLabel: string;
  tableTestId: string;
}) {
  if (isError)
    return (
      <p role="alert" className="text-sm text-destructive">
        Your weekly earnings could not be loaded.
      </p>
    );
  if (!weeks) return <ChartPlaceholder text="Loading earnings..." />;
  return (
    <>
      <ChartWhenNear weeks={weeks} />
      <table className="sr-only" data-testid={tableTestId}>
        <caption>Earnings per week, oldest first</caption>
        <thead>
          <tr>
            <th scope="col">Week of</th>
            <th scope="col">Earnings</th>
            <th scope="col">{countLabel}</th>
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week.weekStart} data-week={week.weekStart}>
              <th scope="row">{formatWeek(week.weekStart)}</th>
              <td>{formatPrice(week.earnings)}</td>
              <td>{week.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
