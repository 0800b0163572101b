import { useId, useState, type FormEvent } from 'react';
import { Clock } from 'lucide-react';
import { arrivalTimeProblem } from '@domain/deliveries';
import { isActiveDelivery } from '@domain/order-status';
import type { Order } from '@domain/orders';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { formatDateTime, marketplaceTimeZone, marketplaceZoneText } from '../../../lib/format';
import { toastMutationError } from '../../../lib/mutation-errors';
import { useSetEstimatedTime } from '../api/set-estimated-time';
import { arrivalInputOf, initialArrivalInput, instantOfArrivalInput } from '../arrival-time';

/** While the driver works on the order the arrival time may change (docs/rules/deliveries.md, Deliveries). */
export function canEditArrival(order: Pick<Order, 'status'>): boolean {
  return isActiveDelivery(order.status);
}

/** Why the value cannot be saved, or null. */
export function arrivalInputProblem(value: string, now: Date, timeZone: string): string | null {
  if (!value.trim()) return 'Arrival time needs a value';
  const instant = instantOfArrivalInput(value, timeZone);
  if (!instant) return 'Enter a date and a time';
  return arrivalTimeProblem(new Date(instant), now);
}

/**
 * The expected arrival time editor of the assigned driver (docs/rules/deliveries.md, Deliveries): a
 * date and time in the marketplace time zone, in the future; the buyer and the seller then see it
 * on the order. Toast on failure: "Failed to update arrival time".
 */
export function ArrivalTimeEditor({ order }: { order: Order }) {
  const timeZone = marketplaceTimeZone();
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const [value, setValue] = useState(() => initialArrivalInput(order.estimatedDeliveryTime, timeZone));
  const [error, setError] = useState<string | null>(null);
  const save = useSetEstimatedTime();
  const current = formatDateTime(order.estimatedDeliveryTime);
  // The zone's abbreviation of the time entered, not of today: across a change of the clocks they
  // differ (docs/rules/running.md, Dates and times).
  const enteredAt = instantOfArrivalInput(value, timeZone);
  if (!canEditArrival(order)) return null;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = arrivalInputProblem(value, new Date(), timeZone);
    setError(problem);
    const at = instantOfArrivalInput(value, timeZone);
    if (problem || !at) return;
    save.mutate(
      { orderId: order.id, at },
      {
        onSuccess: (changed) =>
          toast({
            title: 'Arrival time updated',
            description: `The buyer now sees ${formatDateTime(changed.estimatedDeliveryTime) ?? 'it'}.`,
          }),
        onError: (failure) =>
          toastMutationError(failure, 'Failed to update arrival time', { appendServerMessage: true }),
      },
    );
  };

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-2" aria-label="Expected arrival time">
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={inputId} className="flex items-center gap-2 text-sm font-medium">
          <Clock className="size-4 text-muted-foreground" aria-hidden="true" />
          Expected arrival
        </label>
        <span className="text-right text-xs text-muted-foreground" data-testid="text-current-arrival">
          {current ?? 'Not set yet'}
        </span>
      </div>
      <div className="flex gap-2">
        <Input
          id={inputId}
          type="datetime-local"
          value={value}
          min={arrivalInputOf(new Date(), timeZone)}
          onChange={(event) => {
            setValue(event.target.value);
            setError(null);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${hintId} ${errorId}` : hintId}
          className="min-w-0 flex-1"
          data-testid="input-arrival-time"
        />
        <Button type="submit" variant="secondary" disabled={save.isPending} data-testid="button-save-arrival">
          {save.isPending ? 'Saving...' : 'Save'}
        </Button>
      </div>
      <p id={hintId} className="text-xs text-muted-foreground">
        {marketplaceZoneText(enteredAt ? new Date(enteredAt) : undefined)}
      </p>
      {error ? (
        <p
          id={errorId}
          role="alert"
          className="text-xs font-medium text-destructive"
          data-testid="error-arrival-time"
        >
          {error}
        </p>
      ) : null}
    </form>
  );
}
