import { useId } from 'react';
import { CalendarClock, Plus, Trash2 } from 'lucide-react';
import { DAY_NAMES, DEFAULT_SCHEDULE, scheduleBodySchema, type Schedule } from '@domain/availability';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { toast } from '../../../components/ui/use-toast';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useAddSchedule } from '../api/add-schedule';
import { useDeleteSchedule } from '../api/delete-schedule';
import { useSchedules } from '../api/get-schedules';
import { formatTime } from '../availability-format';

export const NO_SCHEDULES_TEXT = 'No weekly hours yet';

function dayName(dayOfWeek: number): string {
  return DAY_NAMES[dayOfWeek] ?? `Day ${dayOfWeek}`;
}

function timeRange(schedule: Pick<Schedule, 'startTime' | 'endTime'>): string {
  return `${formatTime(schedule.startTime)} – ${formatTime(schedule.endTime)}`;
}

/**
 * The weekly schedule, with a form that starts at Monday 09:00 to 17:00
 * (docs/rules/screens-buyer.md, Account pages).
 */
export function WeeklyScheduleCard({ description }: { description: string }) {
  const { data: schedules, isLoading, isError } = useSchedules();
  const deleteSchedule = useDeleteSchedule();

  const remove = (schedule: Schedule) =>
    deleteSchedule.mutate(schedule.id, {
      onSuccess: () =>
        toast({
          title: 'Schedule removed',
          description: `${dayName(schedule.dayOfWeek)}, ${timeRange(schedule)}`,
        }),
    });

  const titleId = useId();
  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId} as="h2" className="flex items-center gap-2">
          <CalendarClock className="size-5 text-primary" aria-hidden="true" />
          Weekly Schedule
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        {isLoading ? (
          <p role="status" className="text-sm text-muted-foreground">
            Loading schedule...
          </p>
        ) : isError || !schedules ? (
          <p role="alert" className="text-sm font-medium text-destructive">
            Your schedule could not be loaded.
          </p>
        ) : schedules.length === 0 ? (
          <div className="rounded-lg border border-dashed p-6 text-center">
            <p className="font-medium">{NO_SCHEDULES_TEXT}</p>
            <p className="mt-1 text-sm text-muted-foreground">Add the days and times you are available.</p>
          </div>
        ) : (
          <ul className="flex flex-col divide-y rounded-lg border" aria-label="Weekly hours">
            {schedules.map((schedule) => (
              <li key={schedule.id} className="flex items-center gap-3 px-4 py-2">
                <div className="flex min-w-0 flex-1 flex-col sm:flex-row sm:items-center sm:gap-4">
                  <span className="font-medium sm:w-28">{dayName(schedule.dayOfWeek)}</span>
                  <span className="text-sm text-muted-foreground">{timeRange(schedule)}</span>
                </div>
                {schedule.isActive ? null : <Badge variant="secondary">Paused</Badge>}
                <Button
                  variant="ghost"
                  size="icon"
                  onClick={() => remove(schedule)}
                  disabled={deleteSchedule.isPending && deleteSchedule.variables === schedule.id}
                  aria-label={`Remove ${dayName(schedule.dayOfWeek)} ${timeRange(schedule)}`}
                  className="text-destructive hover:bg-destructive/10 hover:text-destructive"
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </li>
            ))}
          </ul>
        )}
        <AddScheduleForm />
      </CardContent>
    </Card>
  );
}

/** The form starts at the default hours; any day and times may then be chosen. */
const FIRST_VALUES: { dayOfWeek: number; startTime: string; endTime: string } = { ...DEFAULT_SCHEDULE };

function AddScheduleForm() {
  const { formRef, values, errors, setValue, handleSubmit, showServerErrors } = useSchemaForm({
    schema: scheduleBodySchema,
    initialValues: FIRST_VALUES,
  });
  const addSchedule = useAddSchedule();

  const onSubmit = handleSubmit((body) =>
    addSchedule.mutate(body, {
      onSuccess: (added) =>
        toast({
          title: 'Schedule added',
          description: `${dayName(added.dayOfWeek)}, ${timeRange(added)}`,
        }),
      onError: (error) => showServerErrors(error),
    }),
  );

  // Times are not validated for order; such a range simply offers no times
  // (docs/rules/catalog-and-orders.md, Addresses, availability and slots).
  const { dayOfWeek, startTime, endTime } = values;
  const endsBeforeStart = startTime !== '' && endTime !== '' && endTime <= startTime;

  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={onSubmit}
      aria-labelledby="add-schedule-heading"
      className="flex flex-col gap-4 border-t pt-6"
    >
      <h3 id="add-schedule-heading" className="text-sm font-semibold">
        Add hours
      </h3>
      <div className="grid grid-cols-1 items-start gap-4 sm:grid-cols-3">
        <FormField id="schedule-day" label="Day" error={errors.dayOfWeek}>
          {(control) => (
            <Select value={String(dayOfWeek)} onValueChange={(value) => setValue('dayOfWeek', Number(value))}>
              <SelectTrigger {...control}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {DAY_NAMES.map((name, index) => (
                  <SelectItem key={name} value={String(index)}>
                    {name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        </FormField>
        <FormField id="schedule-start" label="Start time" error={errors.startTime}>
          {(control) => (
            <Input
              {...control}
              type="time"
              value={startTime}
              onChange={(event) => setValue('startTime', event.target.value)}
            />
          )}
        </FormField>
        <FormField
          id="schedule-end"
          label="End time"
          error={errors.endTime}
          hint={endsBeforeStart ? 'Ends before it starts, so this range offers no times.' : undefined}
        >
          {(control) => (
            <Input
              {...control}
              type="time"
              value={endTime}
              onChange={(event) => setValue('endTime', event.target.value)}
            />
          )}
        </FormField>
      </div>
      <div>
        <Button type="submit" disabled={addSchedule.isPending} aria-label="Add hours">
          <Plus aria-hidden="true" />
          {addSchedule.isPending ? 'Adding...' : 'Add'}
        </Button>
      </div>
    </form>
  );
}
