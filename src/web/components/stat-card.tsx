import { useId, type ReactNode } from 'react';
import { Card, CardContent } from './ui/card';
import { cn } from '../lib/utils';

export interface StatCardProps {
  title: string;
  value: ReactNode;
  icon: ReactNode;
  /** Percent change from last week: shown as "+N% from last week", green when positive, red otherwise. */
  trend?: number;
  /** A second line under the value (the admin's Total Revenue shows the gross order value). */
  description?: ReactNode;
  className?: string;
}

/** "+12% from last week", "-3% from last week", "0% from last week". */
export function formatTrend(trend: number): string {
  const rounded = Math.round(trend * 10) / 10;
  return `${rounded > 0 ? '+' : ''}${rounded}% from last week`;
}

/**
 * The statistic card: title, value, icon, optional weekly trend (docs/rules/screens-buyer.md, Order
 * screens). It is a region named by its title, so a screen reader can list and reach each figure.
 */
export function StatCard({ title, value, icon, trend, description, className }: StatCardProps) {
  const titleId = useId();
  return (
    <Card className={className} role="region" aria-labelledby={titleId}>
      <CardContent className="flex items-start justify-between gap-4 p-6">
        <div className="flex min-w-0 flex-col gap-1">
          <p id={titleId} className="text-sm font-medium text-muted-foreground">
            {title}
          </p>
          <p className="text-2xl font-bold tabular-nums">{value}</p>
          {description === undefined ? null : <p className="text-xs text-muted-foreground">{description}</p>}
          {trend === undefined ? null : (
            <p
              className={cn(
                'text-xs font-medium',
                trend > 0 ? 'text-emerald-700 dark:text-emerald-400' : 'text-red-700 dark:text-red-400',
              )}
            >
              {formatTrend(trend)}
            </p>
          )}
        </div>
        <span
          className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-accent text-accent-foreground [&_svg]:size-5"
          aria-hidden="true"
        >
          {icon}
        </span>
      </CardContent>
    </Card>
  );
}
