import { Check, Circle, XCircle } from 'lucide-react';
import { cn } from '../../../lib/utils';
import { formatDateTime, type TimelineStep } from '../order-view';

/**
 * The order's steps, done up to the current one, each with its time
 * (docs/rules/screens-buyer.md, Order screens; docs/rules/catalog-and-orders.md, Order lifecycle).
 */
export function OrderStatusTimeline({
  steps,
  isLoading,
}: {
  steps: readonly TimelineStep[];
  isLoading: boolean;
}) {
  return (
    <ol className="flex flex-col" aria-label="Status timeline" aria-busy={isLoading}>
      {steps.map((step, index) => {
        const cancelled = step.key === 'cancelled';
        const last = index === steps.length - 1;
        const time = formatDateTime(step.at);
        return (
          <li
            key={step.key}
            className="relative flex gap-3 pb-5 last:pb-0"
            data-done={step.done}
            aria-current={step.current ? 'step' : undefined}
          >
            {last ? null : (
              <span
                aria-hidden="true"
                className={cn(
                  'absolute left-3 top-7 -ml-px h-[calc(100%-1.75rem)] w-0.5',
                  steps[index + 1]?.done
                    ? steps[index + 1]?.key === 'cancelled'
                      ? 'bg-destructive'
                      : 'bg-primary'
                    : 'bg-border',
                )}
              />
            )}
            <span
              aria-hidden="true"
              className={cn(
                'relative z-10 flex size-6 shrink-0 items-center justify-center rounded-full border-2',
                cancelled
                  ? 'border-destructive bg-destructive text-destructive-foreground'
                  : step.done
                    ? 'border-primary bg-primary text-primary-foreground'
                    : 'border-border bg-background text-muted-foreground',
              )}
            >
              {cancelled ? (
                <XCircle className="size-4" />
              ) : step.done ? (
                <Check className="size-3.5" strokeWidth={3} />
              ) : (
                <Circle className="size-2 fill-current" />
              )}
            </span>
            <div className="flex min-w-0 flex-col">
              <span className={cn('text-sm font-medium', !step.done && 'text-muted-foreground')}>
                {step.label}
                <span className="sr-only">{step.done ? ' (done)' : ' (to come)'}</span>
              </span>
              {time ? (
                <time dateTime={step.at ?? undefined} className="text-xs text-muted-foreground">
                  {time}
                </time>
              ) : step.done && isLoading ? (
                <span className="text-xs text-muted-foreground">Loading time...</span>
              ) : null}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
