import { useId } from 'react';
import { CalendarOff, Plus, Trash2 } from 'lucide-react';
import { blackoutBodySchema, REASON_MAX_LENGTH, type Blackout } from '@domain/availability';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useAddBlackout } from '../api/add-blackout';
import { useDeleteBlackout } from '../api/delete-blackout';
import { useBlackouts } from '../api/get-blackouts';
import { formatDateRange, todayLocalDate } from '../availability-format';

export const NO_BLACKOUTS_TEXT = 'No blackout dates';

/** Days off, each a range of whole days with an optional reason (docs/rules/screens-buyer.md, Account pages). */
export function BlackoutDatesCard({ description }: { description: string }) {
  const { data: blackouts, isLoading, isError } = useBlackouts();
  const deleteBlackout = useDeleteBlackout();

  const remove = (blackout: Blackout) =>
    deleteBlackout.mutate(blackout.id, {
      onSuccess: () =>
        toast({
          title: 'Blackout date removed',
          description: formatDateRange(blackout.startDate, blackout.endDate),
        }),
    });

  const titleId = useId();
  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId} as="h2" className="flex items-center gap-2">
          <CalendarOff className="size-5 text-primary" aria-hidden="true" />
          Blackout Dates
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        {isLoading ? (
          <p role="status" className="text-sm text-muted-foreground">
            Loading blackout dates...
          </p>
        ) : isError || !blackouts ? (
          <p role="alert" className="text-sm font-medium text-destructive">
            Your blackout dates could not be loaded.
          </p>
        ) : blackouts.length === 0 ? (
          <div className="rounded-lg border border-dashed p-6 text-center">
            <p className="font-medium">{NO_BLACKOUTS_TEXT}</p>
            <p className="mt-1 text-sm text-muted-foreground">Add the days you are away, such as holidays.</p>
          </div>
        ) : (
          <ul className="flex flex-col divide-y rounded-lg border" aria-label="Blackout dates">
            {blackouts.map((blackout) => {
              const dates = formatDateRange(blackout.startDate, blackout.endDate);
              return (
                <li key={blackout.id} className="flex items-center gap-3 px-4 py-2">
                  <div className="flex min-w-0 flex-1 flex-col">
                    <span className="font-medium">{dates}</span>
                    <span className="break-words text-sm text-muted-foreground">
                      {blackout.reason ?? 'No reason given'}
                    </span>
                  </div>
                  <Button
                    variant="ghost"
                    size="icon"
                    onClick={() => remove(blackout)}
                    disabled={deleteBlackout.isPending && deleteBlackout.variables === blackout.id}
                    aria-label={`Remove blackout ${dates}`}
                    className="text-destructive hover:bg-destructive/10 hover:text-destructive"
                  >
                    <Trash2 aria-hidden="true" />
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
        <AddBlackoutForm />
      </CardContent>
    </Card>
  );
}

function AddBlackoutForm() {
  const { formRef, values, errors, setValue, clearErrors, handleSubmit, showServerErrors } = useSchemaForm({
    schema: blackoutBodySchema,
    // A blackout most often starts soon; one day (today) is the smallest range and easy to widen.
    initialValues: () => ({ startDate: todayLocalDate(), endDate: todayLocalDate(), reason: '' }),
  });
  const addBlackout = useAddBlackout();

  const changeStart = (value: string) => {
    setValue('startDate', value);
    // Moving the start past the end moves the end along, so a one-day range stays one click.
    if (value && values.endDate && values.endDate < value) setValue('endDate', value);
    clearErrors();
  };

  const onSubmit = handleSubmit((body) =>
    addBlackout.mutate(body, {
      onSuccess: (added) => {
        toast({
          title: 'Blackout date added',
          description: formatDateRange(added.startDate, added.endDate),
        });
        setValue('reason', '');
      },
      onError: (error) => showServerErrors(error),
    }),
  );

  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={onSubmit}
      aria-labelledby="add-blackout-heading"
      className="flex flex-col gap-4 border-t pt-6"
    >
      <h3 id="add-blackout-heading" className="text-sm font-semibold">
        Add blackout dates
      </h3>
      <div className="grid grid-cols-1 items-start gap-4 sm:grid-cols-2">
        <FormField id="blackout-start" label="Start date" error={errors.startDate}>
          {(control) => (
            <Input
              {...control}
              type="date"
              value={values.startDate}
              onChange={(event) => changeStart(event.target.value)}
            />
          )}
        </FormField>
        <FormField id="blackout-end" label="End date" error={errors.endDate}>
          {(control) => (
            <Input
              {...control}
              type="date"
              value={values.endDate}
              min={values.startDate || undefined}
              onChange={(event) => {
                setValue('endDate', event.target.value);
                clearErrors();
              }}
            />
          )}
        </FormField>
      </div>
      <FormField id="blackout-reason" label="Reason" optional error={errors.reason}>
        {(control) => (
          <Input
            {...control}
            value={values.reason}
            maxLength={REASON_MAX_LENGTH}
            placeholder="Holiday, vacation, ..."
            onChange={(event) => setValue('reason', event.target.value)}
          />
        )}
      </FormField>
      <div>
        <Button type="submit" disabled={addBlackout.isPending} aria-label="Add blackout dates">
          <Plus aria-hidden="true" />
          {addBlackout.isPending ? 'Adding...' : 'Add'}
        </Button>
      </div>
    </form>
  );
}
