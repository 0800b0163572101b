import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatUsd, parseCents, sumCents } from '@domain/money';
import { formatWeek } from '../lib/format-week';
import { useTheme } from '../lib/theme';

const HEIGHT = 240;

/** A design token of the current theme, as the canvas needs it (docs/rules/screens-shared.md, Client behaviour). */
function token(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

/** A week of earnings: its Monday (YYYY-MM-DD) and the amount ("12.50"). */
export interface EarningsWeek {
  weekStart: string;
  earnings: string;
}

/**
 * Weekly earnings as bars, drawn by uPlot (a small canvas chart library, loaded with this chart
 * only): the seller's and the driver's. Colours come from the theme's tokens and are read again when
 * the theme changes. The bars are for sighted users; the same numbers are in the card's table for
 * everyone else.
 */
export function WeeklyEarningsChart({ weeks }: { weeks: readonly EarningsWeek[] }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const { theme } = useTheme();

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const labels = weeks.map((week) => formatWeek(week.weekStart));
    const cents = weeks.map((week) => parseCents(week.earnings));
    const total = sumCents(cents);
    const foreground = token('--muted-foreground');
    const grid = token('--border');
    const bar = token('--primary');
    const options: uPlot.Options = {
      width: Math.max(container.clientWidth, 200),
      height: HEIGHT,
      padding: [12, 8, 0, 0],
      // Pointing at a bar names its week and amount under the chart.
      legend: { show: true, live: true },
      cursor: { x: false, y: false, points: { show: false }, drag: { x: false, y: false } },
      scales: {
        x: { time: false, range: [-0.5, weeks.length - 0.5] },
        y: { range: (_plot, _min, max) => [0, Math.max(max, 10) * 1.15] },
      },
      axes: [
        {
          stroke: foreground,
          grid: { show: false },
          ticks: { show: false },
          // Every other week on a narrow screen, every week when there is room.
          space: 44,
          incrs: [1, 2, 3, 4],
          values: (_plot, splits) => splits.map((index) => labels[index] ?? ''),
          font: '11px system-ui, sans-serif',
        },
        {
          stroke: foreground,
          grid: { stroke: grid, width: 1 },
          ticks: { show: false },
          size: 64,
          values: (_plot, splits) =>
            splits.map((dollars) => formatUsd(Math.round(dollars * 100)).replace(/\.00$/, '')),
          font: '11px system-ui, sans-serif',
        },
      ],
      series: [
        // Not pointing at a bar: the legend sums up the weeks shown.
        {
          label: 'Week',
          value: (_plot, index) => (index === null ? `all ${weeks.length}` : (labels[index] ?? '')),
        },
        {
          label: 'Earnings',
          value: (_plot, dollars) => formatUsd(dollars === null ? total : Math.round(dollars * 100)),
          stroke: bar,
          fill: bar,
          width: 0,
          points: { show: false },
          paths: uPlot.paths.bars?.({ size: [0.6, 40], radius: 0.15 }),
        },
      ],
    };
    const plot = new uPlot(
      options,
      [weeks.map((_, index) => index), cents.map((value) => value / 100)],
      container,
    );
    const resize = new ResizeObserver(() => {
      const width = Math.max(container.clientWidth, 200);
      if (width !== plot.width) plot.setSize({ width, height: HEIGHT });
    });
    resize.observe(container);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [weeks, theme]);

  return <div ref={containerRef} aria-hidden="true" className="w-full" data-testid="chart-weekly-earnings" />;
}
